import { randomUUID } from "node:crypto";
import { afterAll, inject } from "vitest";
import { databaseUrl, dropDatabase } from "../../scripts/scratch-postgres.mjs";
import { copyDatabase } from "./postgres";

// Runs before each test file imports the app: point it at a private copy of
// this run's migrated, seeded template database.
const { adminUrl, template } = inject("testDatabase");
const copy = `${template}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
await copyDatabase(adminUrl, template, copy);
process.env.DATABASE_URL = databaseUrl(adminUrl, copy);

afterAll(async () => {
  const { db } = await import("~/utils/db.server");
  await db.$disconnect();
  await dropDatabase(adminUrl, copy);
});
