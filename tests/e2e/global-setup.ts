import type { FullConfig } from "@playwright/test";
import { rmSync } from "node:fs";
import { buildIfStale } from "../../server/prepare.mjs";
import { scratchDatabase, startShop } from "../support/shop-process";
import { failOnCustomerData } from "../setup/global-setup";

/**
 * The shop every spec shares: built when its sources changed, on a fresh
 * database of this run on the test PostgreSQL server (the embedded one under
 * var/test-postgres, or TEST_POSTGRES_URL's), started here rather than by
 * Playwright's webServer, which starts before global setup and so could not
 * be given the database. Specs that start shops of their own make their
 * databases on the same server (TEST_POSTGRES_URL, set here for the workers).
 */
export default async function globalSetup(config: FullConfig) {
  buildIfStale();
  // This run's log lines replace the last run's (the scan for customer data reads them: scripts/scan-logs.mjs).
  rmSync("var/test-logs/e2e", { recursive: true, force: true });
  const database = await scratchDatabase("chillpb_e2e");
  process.env.TEST_POSTGRES_URL ??= database.adminUrl;
  // The shared shop's own database, for the specs that set up a state no request can make (a dead email: admin-system.spec.ts).
  process.env.E2E_DATABASE_URL = database.url;
  const port = Number(new URL(config.projects[0]!.use.baseURL!).port);
  const shop = await startShop(
    port,
    {
      ...process.env,
      DATABASE_URL: database.url,
      MOCKS: "true",
      TEST_CHECKOUT_EMAIL: "admin-test@chillpb.example",
      // Every test comes from 127.0.0.1; the limits themselves are proven by the integration tests.
      RATE_LIMIT_PER_MINUTE: "1000",
      // A refund Stripe answers too late stays pending for the browser tests to see; the checker that settles it is proven by the integration tests.
      REFUND_CHECK_MS: "0",
      // The server's JSON log lines, kept for the scan for customer data.
      LOG_FILE: "var/test-logs/e2e/server.jsonl",
    },
    { echo: true },
  );
  return async () => {
    await shop.stop();
    await database.drop();
    // Every shop this run started wrote its lines under var/test-logs/e2e.
    failOnCustomerData("var/test-logs/e2e");
  };
}
