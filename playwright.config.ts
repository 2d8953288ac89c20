import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// A fresh database every run: a new SQLite file, or the empty PostgreSQL database
// the PostgreSQL pass made for this run (scripts/test-postgres.mjs).
const databaseUrl = process.env.E2E_DATABASE_URL ?? "file:./var/e2e.db";
const freshSqlite = databaseUrl.startsWith("file:") ? "rm -f var/e2e.db var/e2e.db-wal var/e2e.db-shm && " : "";

/**
 * End-to-end tests in the system Chromium (never a downloaded browser),
 * against the built shop on its own SQLite file.
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    },
  },
  projects: [
    { name: "chromium", testIgnore: [/\.no-js\.spec\.ts$/, /\.catalog\.spec\.ts$/] },
    { name: "chromium-no-js", testMatch: /\.no-js\.spec\.ts$/, use: { javaScriptEnabled: false } },
    // Specs that sell a product out or change a price on the one shared server:
    // they run after the others, so no other spec meets a catalogue mid-change.
    { name: "catalog", testMatch: /\.catalog\.spec\.ts$/, dependencies: ["chromium", "chromium-no-js"] },
  ],
  webServer: {
    command: `${freshSqlite}node scripts/prepare.mjs && node server.mjs`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    env: {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      MOCKS: "true",
      TEST_CHECKOUT_EMAIL: "admin-test@chillpb.example",
      // Every test comes from 127.0.0.1; the limits themselves are proven by the integration tests.
      RATE_LIMIT_PER_MINUTE: "1000",
    },
    stdout: "pipe",
  },
});
