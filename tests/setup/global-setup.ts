import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createScratchDatabase, dropDatabase, withClient } from "../../scripts/scratch-postgres.mjs";

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
export type TestDatabase = { provider: "sqlite"; dir: string } | { provider: "postgres"; adminUrl: string; template: string };

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: TestDatabase;
  }
}

/**
 * Builds one migrated, seeded template database for this run: a SQLite file
 * in a folder of its own, or, with TEST_DATABASE=postgres, a PostgreSQL
 * database on TEST_POSTGRES_URL's server. Each run has its own, so two runs at
 * once never touch each other's data.
 */
export default async function setup(project: TestProject) {
  const run = randomUUID().slice(0, 8);
  if (process.env.TEST_DATABASE === "postgres") {
    const adminUrl = process.env.TEST_POSTGRES_URL;
    if (!adminUrl) throw new Error("TEST_DATABASE=postgres needs TEST_POSTGRES_URL (a server where the tests may create databases)");
    const { name: template, url } = await createScratchDatabase(adminUrl, "chillpb_test");
    execFileSync(process.execPath, ["scripts/migrate-postgres.mjs"], { env: withDatabase(url), stdio: "pipe" });
    seed(url);
    project.provide("testDatabase", { provider: "postgres", adminUrl, template });
    return () => dropRunDatabases(adminUrl, template);
  }
  const dir = path.resolve(`var/test/run-${run}`);
  mkdirSync(dir, { recursive: true });
  const url = `file:${path.join(dir, "template.db")}`;
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], { env: withDatabase(url), stdio: "pipe" });
  seed(url);
  project.provide("testDatabase", { provider: "sqlite", dir });
  return () => rmSync(dir, { recursive: true, force: true });
}

const withDatabase = (url: string) => ({ ...process.env, DATABASE_URL: url });

function seed(url: string) {
  execFileSync(path.resolve("node_modules/.bin/tsx"), ["prisma/seed.ts"], { env: withDatabase(url), stdio: "pipe" });
}
