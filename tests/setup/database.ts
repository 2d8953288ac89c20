import { randomUUID } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { databaseUrl, dropDatabase } from "../../scripts/scratch-postgres.mjs";
import { copyDatabase } from "./postgres";

// Runs before each test file imports the app: point it at a private copy of
// this run's migrated, seeded template database.
const testDatabase = inject("testDatabase");
const name = randomUUID().replaceAll("-", "").slice(0, 16);
let cleanUp: () => Promise<unknown> | void;

if (testDatabase.provider === "postgres") {
  const copy = `${testDatabase.template}_${name}`;
  await copyDatabase(testDatabase.adminUrl, testDatabase.template, copy);
  process.env.DATABASE_URL = databaseUrl(testDatabase.adminUrl, copy);
  cleanUp = () => dropDatabase(testDatabase.adminUrl, copy);
} else {
  const file = path.join(testDatabase.dir, `${name}.db`);
  copyFileSync(path.join(testDatabase.dir, "template.db"), file);
  process.env.DATABASE_URL = `file:${file}`;
  cleanUp = () => rmSync(file, { force: true });
}

afterAll(async () => {
  const { db } = await import("~/utils/db.server");
  await db.$disconnect();
  await cleanUp();
});
