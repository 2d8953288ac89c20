import path from "node:path";
import { defineConfig } from "vitest/config";

// `npm run test:cluster`: several real server processes over one PostgreSQL
// database (tests/cluster/). No shared test database or MSW here: the
// servers run their own stand-ins.
export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 30_000,
  },
});
