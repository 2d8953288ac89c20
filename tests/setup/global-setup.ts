import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { scanLogs } from "../../scripts/scan-logs.mjs";
import type { TestProject } from "vitest/node";
import { createScratchDatabase, dropDatabase, testPostgresServer, withClient } from "../../scripts/scratch-postgres.mjs";

/**
 * The template and every copy made from it: a test file whose tests were all
 * skipped never runs its own clean-up, so the run sweeps up after it.
 */
async function dropRunDatabases(adminUrl: string, template: string) {
  const copies = await withClient(adminUrl, (client) =>
    client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${template}\\_%`]),
  );
  for (const { datname } of copies.rows) await dropDatabase(adminUrl, datname);
  await dropDatabase(adminUrl, template);
}

/** Where this run's template database is: every test file gets a private copy of it. */
export type TestDatabase = { adminUrl: string; template: string };

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: TestDatabase;
    /** Where each test file's app writes its JSON log lines (LOG_FILE), for scripts/scan-logs.mjs. */
    logDir: string;
  }
}

/**
 * Builds one migrated, seeded template database for this run on the test
 * PostgreSQL server (the embedded one under var/test-postgres, or
 * TEST_POSTGRES_URL's). Each run has its own, so two runs at once never touch
 * each other's data.
 */
export default async function setup(project: TestProject) {
  // This run's log lines replace the last run's.
  const logDir = path.resolve("var/test-logs/vitest");
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  project.provide("logDir", logDir);
  const server = await testPostgresServer();
  const { name: template, url } = await createScratchDatabase(server.adminUrl, "chillpb_test");
  execFileSync(process.execPath, ["server/migrate.mjs"], { env: withDatabase(url), stdio: "pipe" });
  execFileSync(path.resolve("node_modules/.bin/tsx"), ["prisma/seed.ts"], { env: withDatabase(url), stdio: "pipe" });
  project.provide("testDatabase", { adminUrl: server.adminUrl, template });
  return async () => {
    await dropRunDatabases(server.adminUrl, template);
    await server.release();
    failOnCustomerData(logDir);
  };
}

/** No test customer's data may reach a log line (decision 047): the run fails, naming file, line and kind, never the data. */
export function failOnCustomerData(logDir: string) {
  const { lines, findings } = scanLogs([logDir]);
  if (findings.length === 0) return;
  const where = findings.slice(0, 20).map(({ file, line, kind }) => `  ${path.relative(process.cwd(), file)}:${line}: ${kind}`);
  // Vitest reports an error thrown while it closes but still exits 0: the exit code says it too.
  process.exitCode = 1;
  throw new Error(`Customer data in ${findings.length} of ${lines} log lines:\n${where.join("\n")}`);
}

const withDatabase = (url: string) => ({ ...process.env, DATABASE_URL: url });
