// Adds the next PostgreSQL migration after prisma/schema.prisma changed:
// regenerates prisma/postgres/schema.prisma and writes what changed since its
// last version as prisma/postgres/migrations/NNN.do.<name>.sql, made by
// `prisma migrate diff`. Its author may then append data backfills and
// indexes Prisma cannot express, each under a "-- Hand-written:" comment and
// reviewed; nothing else is edited (docs/decisions/029). The PostgreSQL
// tests compare the migrated database with the schema.
//   npm run db:postgres:migration -- add_tracking_numbers
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TARGET, postgresSchema } from "./postgres-schema.mjs";

export const MIGRATIONS = "prisma/postgres/migrations";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:postgres:migration -- <name in snake_case>");
  process.exit(1);
}

const before = existsSync(TARGET) ? readFileSync(TARGET, "utf8") : null;
const after = postgresSchema();
if (before === after) {
  console.log(`${TARGET} is up to date: no migration needed.`);
  process.exit(0);
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "chillpb-pg-"));
const beforeFile = path.join(scratch, "before.prisma");
const afterFile = path.join(scratch, "after.prisma");
if (before !== null) writeFileSync(beforeFile, before);
writeFileSync(afterFile, after);
const from = before === null ? ["--from-empty"] : ["--from-schema-datamodel", beforeFile];
// The CLI reads the generator from the configured schema, so it is written first.
writeFileSync(TARGET, after);
let sql;
try {
  sql = execFileSync(
    path.resolve("node_modules/.bin/prisma"),
    ["migrate", "diff", "--config", "prisma/postgres/prisma.config.ts", ...from, "--to-schema-datamodel", afterFile, "--script"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
} catch (error) {
  if (before === null) rmSync(TARGET, { force: true });
  else writeFileSync(TARGET, before);
  throw error;
}

if (/^\s*-- This is an empty migration\.\s*$/.test(sql)) {
  // A comment or a documentation change: the schema file follows, the database has nothing to do.
  console.log(`${TARGET} updated; the database needs no migration.`);
  process.exit(0);
}

mkdirSync(MIGRATIONS, { recursive: true });
const versions = readdirSync(MIGRATIONS)
  .map((file) => /^(\d+)\.do\./.exec(file)?.[1])
  .filter(Boolean)
  .map(Number);
const next = String(Math.max(0, ...versions) + 1).padStart(3, "0");
const file = path.join(MIGRATIONS, `${next}.do.${name}.sql`);
writeFileSync(file, sql);
console.log(`Wrote ${file} and ${TARGET}.`);
