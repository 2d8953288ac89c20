import { defineConfig } from "@playwright/test";
import { existsSync } from "node:fs";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// Debian's build of Chromium's headless shell, the browser Playwright itself runs headless (its own download is
// never used): a new browser context and a page load take half the time they take in the full browser's headless
// mode (decision 057). The full browser stands in where the shell is not installed.
const chromium = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path));

/**
 * End-to-end tests in the system Chromium (never a downloaded browser),
 * against the built shop on a fresh PostgreSQL database of this run, started
 * by tests/e2e/global-setup.ts. No retries: a retry would hide a flaky test.
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  globalSetup: "tests/e2e/global-setup.ts",
  // Generous waits, because speed is the bench's to judge (npm run bench), never a test's: on a 2-core
  // machine running two browsers, the axe scans and the shop, the admin's first render alone can take
  // several seconds of CPU, and a 7-second wait failed tests that were right.
  timeout: 45_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    // A trace records every action's page for the viewer: 30% of a run's time here (61 s against 43 s for the same
    // 16 tests), so CI, whose traces nobody opens, keeps a screenshot of a failure instead (decision 057).
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    },
  },
  projects: [
    { name: "chromium", testIgnore: [/\.no-js\.spec\.ts$/, /\.catalog\.spec\.ts$/, /\.settings\.spec\.ts$/] },
    { name: "chromium-no-js", testMatch: /\.no-js\.spec\.ts$/, use: { javaScriptEnabled: false } },
    // Specs that sell a product out or change a price on the one shared server:
    // they run after the others, so no other spec meets a catalogue mid-change, and one file at a time: two of them
    // sell out Strawberry Bliss, two Banana Blast, and side by side one's sell-out refused the other's add to cart.
    { name: "catalog", testMatch: /\.catalog\.spec\.ts$/, dependencies: ["chromium", "chromium-no-js"], workers: 1 },
    // Specs that change the shop's terms (fees, zones, codes; decision 052): last of all, one at a time.
    { name: "settings", testMatch: /\.settings\.spec\.ts$/, dependencies: ["catalog"], workers: 1 },
  ],
});
