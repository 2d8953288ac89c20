// Writes the next migration after prisma/schema.prisma changed:
// prisma/migrations/NNN.do.<name>.sql, made by `prisma migrate diff` from the
// schema as it was when the newest migration was committed to the schema as
// it is now. Its author may then append data backfills and indexes Prisma
// cannot express, each under a "-- Hand-written:" comment and reviewed;
// nothing else is edited (docs/decisions/029). Commit the migration with the
// schema change it is for: the next one starts from that commit's schema.
// tests/integration/migrations.test.ts checks that the migrations add up to
// the schema.
//   npm run db:migration -- add_tracking_numbers
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { testPostgresServer } from "./scratch-postgres.mjs";

export const MIGRATIONS = "prisma/migrations";
const SCHEMA = "prisma/schema.prisma";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:migration -- <name in snake_case>");
  process.exit(1);
}

/** @param {string[]} args */
const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).trim();
const lastMigrationCommit = git("log", "-1", "--format=%H", "--", MIGRATIONS);
const scratch = mkdtempSync(path.join(os.tmpdir(), "chillpb-migration-"));
const before = path.join(scratch, "before.prisma");
writeFileSync(before, git("show", `${lastMigrationCommit}:${SCHEMA}`));

// Prisma's schema engine connects through the driver adapter even to compare
// two schema files: it gets the test server's maintenance database, and changes nothing there.
const server = await testPostgresServer();
let sql;
try {
  sql = execFileSync(
    path.resolve("node_modules/.bin/prisma"),
    ["migrate", "diff", "--from-schema-datamodel", before, "--to-schema-datamodel", SCHEMA, "--script"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, DATABASE_URL: server.adminUrl } },
  );
} finally {
  await server.release();
}
if (/^\s*-- This is an empty migration\.\s*$/.test(sql)) {
  console.log(`${SCHEMA} describes the same database as the migrations: no migration needed.`);
  process.exit(0);
}

const versions = readdirSync(MIGRATIONS)
  .map((file) => /^(\d+)\.do\./.exec(file)?.[1])
  .filter(Boolean)
  .map(Number);
const file = path.join(MIGRATIONS, `${String(Math.max(0, ...versions) + 1).padStart(3, "0")}.do.${name}.sql`);
writeFileSync(file, sql);
console.log(`Wrote ${file}: review it, add any backfill under "-- Hand-written:", and commit it with the schema change.`);
