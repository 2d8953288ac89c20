import { randomUUID } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll } from "vitest";

// Runs before each test file imports the app: point it at a private copy of
// the migrated, seeded template database.
const file = path.resolve(`var/test/${randomUUID()}.db`);
copyFileSync(path.resolve("var/test/template.db"), file);
process.env.DATABASE_URL = `file:${file}`;

afterAll(async () => {
  const { db } = await import("~/db.server");
  await db.$disconnect();
  rmSync(file, { force: true });
});
