import { randomUUID } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, inject } from "vitest";

// Runs before each test file imports the app: point it at a private copy of
// this run's migrated, seeded template database.
const dir = inject("testDatabaseDir");
const file = path.join(dir, `${randomUUID()}.db`);
copyFileSync(path.join(dir, "template.db"), file);
process.env.DATABASE_URL = `file:${file}`;

afterAll(async () => {
  const { db } = await import("~/db.server");
  await db.$disconnect();
  rmSync(file, { force: true });
});
