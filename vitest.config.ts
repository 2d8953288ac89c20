import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/environment.ts", "tests/setup/database.ts", "tests/setup/msw.ts", "tests/setup/custom-matchers.ts"],
    // Each test file gets its own database copy, so files can run in parallel.
    pool: "forks",
    testTimeout: 15_000,
  },
});
