import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { MIGRATION_LOCK_WAIT_MS, STARTUP_LOCK_KEY, migrate as migrateFrom } from "../../server/migrate.mjs";
import { createScratchDatabase, withClient } from "../../scripts/scratch-postgres.mjs";

function migrate(url: string, env: Record<string, string> = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["server/migrate.mjs"], { env: { ...process.env, DATABASE_URL: url, ...env } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`exit ${code}: ${output}`))));
  });
}

const { adminUrl } = inject("testDatabase");

describe("migrations at start", () => {
  it("three instances starting together migrate once; the others find the schema up to date", async () => {
    const { url, drop } = await createScratchDatabase(adminUrl, "chillpb_migrate");
    try {
      const files = readdirSync("prisma/migrations").sort();
      const outputs = await Promise.all([migrate(url), migrate(url), migrate(url)]);
      expect(outputs.filter((output) => output === `Applied ${files.join(", ")}.`)).toHaveLength(1);
      expect(outputs.filter((output) => output === "The database schema is up to date.")).toHaveLength(2);
      const applied = await withClient(url, (client) => client.query("SELECT version FROM schema_migrations WHERE version > 0 ORDER BY version"));
      expect(applied.rows.map((row: { version: string }) => Number(row.version))).toEqual(files.map((_, index) => index + 1));
    } finally {
      await drop();
    }
  });

  it("an instance that cannot get the start-up lock within MIGRATION_LOCK_TIMEOUT_MS stops and says how to find the holder", async () => {
    const { url, drop } = await createScratchDatabase(adminUrl, "chillpb_lock");
    try {
      // Another instance, stuck while it holds the lock.
      await withClient(url, async (stuck) => {
        await stuck.query("SELECT pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
        const started = Date.now();
        const failure = await migrate(url, { MIGRATION_LOCK_TIMEOUT_MS: "1000" }).then(
          (output) => new Error(`migrated while the lock was held: ${output}`),
          (error: Error) => error,
        );
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
        expect(failure.message).toMatch(/^exit 1: Waited 1 s for the start-up lock \(advisory lock 727001\) and another session still holds it/);
        expect(failure.message).toContain("FROM pg_locks WHERE locktype = 'advisory' AND objid = 727001 AND granted)");
        // Nothing was applied meanwhile.
        const tables = await stuck.query("SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = 'public'");
        expect(tables.rows).toEqual([{ count: 0 }]);
      });
      // Once the holder is gone, the next start migrates.
      expect(await migrate(url, { MIGRATION_LOCK_TIMEOUT_MS: "1000" })).toMatch(/^Applied 001\.do\.init\.sql, /);
    } finally {
      await drop();
    }
  });
});

/**
 * Indexes the migrations add beyond what prisma/schema.prisma can
 * say, each hand-written and marked in its migration (decision 029). Any
 * other difference between the migrated schema and the generated one fails.
 */
const MIGRATION_ONLY_INDEXES = [
  "Order_id_pattern_idx",
  "Order_unpaid_created_idx",
  "Order_refund_requested_idx",
  "Order_first_name_key_idx",
  "Order_last_name_key_idx",
  "Order_part_refunded_idx",
  "Order_to_prepare_idx",
  "Order_delivery_day_idx",
];

/** What a PostgreSQL database's tables are: columns, indexes, constraints and enum types, schema_migrations left out. */
async function describeSchema(client: pg.Client) {
  const columns = await client.query(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
       FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
      ORDER BY table_name, column_name`,
  );
  const indexes = await client.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> 'schema_migrations'
      ORDER BY indexname`,
  );
  const constraints = await client.query(
    `SELECT c.conrelid::regclass::text AS "table", c.conname AS name, c.contype::text AS type, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public' AND c.conrelid::regclass::text <> 'schema_migrations'
      ORDER BY 1, 2`,
  );
  const enums = await client.query(
    `SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public'
      GROUP BY t.typname ORDER BY t.typname`,
  );
  return { columns: columns.rows, indexes: indexes.rows as { indexname: string }[], constraints: constraints.rows, enums: enums.rows };
}

/** The whole PostgreSQL schema as Prisma writes it for an empty database, from the generated schema file. */
function schemaFromEmpty() {
  return execFileSync(
    path.resolve("node_modules/.bin/prisma"),
    ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
}

describe("migrations against the schema", () => {
  it("applying every migration gives the schema prisma/schema.prisma describes, plus only the documented hand-written indexes", async () => {
    const generated = await createScratchDatabase(adminUrl, "chillpb_schema");
    const migrated = await createScratchDatabase(adminUrl, "chillpb_migrated");
    try {
      await withClient(generated.url, (client) => client.query(schemaFromEmpty()));
      await migrate(migrated.url);
      const want = await withClient(generated.url, describeSchema);
      const got = await withClient(migrated.url, describeSchema);

      expect(got.columns).toEqual(want.columns);
      expect(got.constraints).toEqual(want.constraints);
      expect(got.enums).toEqual(want.enums);
      expect(got.indexes.filter((index) => !MIGRATION_ONLY_INDEXES.includes(index.indexname))).toEqual(want.indexes);
      // The allowance is for indexes that exist: one dropped or renamed must be taken off the list too.
      expect(got.indexes.map((index) => index.indexname)).toEqual(expect.arrayContaining(MIGRATION_ONLY_INDEXES));
    } finally {
      await generated.drop();
      await migrated.drop();
    }
  }, 60_000);
});

/**
 * A migration that builds an index on a large table while the shop serves
 * (decision 080): CREATE INDEX CONCURRENTLY, alone in its file, so that
 * Postgrator's one query is that statement and no transaction holds it; and
 * squawk, in `npm run lint`, refuses a new migration that builds one
 * otherwise; the runner waits at most MIGRATION_LOCK_WAIT_MS for a lock.
 */
describe("index builds under traffic", () => {
  it("a file holding only CREATE INDEX CONCURRENTLY runs through the migrations and leaves a valid index", async () => {
    const database = await createScratchDatabase(adminUrl, "chillpb_concurrently");
    const directory = mkdtempSync(path.join(os.tmpdir(), "chillpb-migrations-"));
    try {
      writeFileSync(
        path.join(directory, "001.do.table.sql"),
        `CREATE TABLE "Big" ("id" int PRIMARY KEY, "name" text NOT NULL);\nINSERT INTO "Big" SELECT n, 'name ' || n FROM generate_series(1, 1000) AS n;\n`,
      );
      writeFileSync(
        path.join(directory, "002.do.big_name_index.sql"),
        `-- Alone in its file: no transaction may hold CREATE INDEX CONCURRENTLY.\nCREATE INDEX CONCURRENTLY "Big_name_idx" ON "Big" ("name");\n`,
      );
      const applied = await withClient(database.url, (client) => migrateFrom(client, { directory }));
      expect(applied).toEqual(["001.do.table.sql", "002.do.big_name_index.sql"]);
      const { rows } = await withClient(database.url, (client) =>
        client.query(`SELECT i.indisvalid AS "valid" FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'Big_name_idx'`),
      );
      expect(rows).toEqual([{ valid: true }]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
      await database.drop();
    }
  });

  it("a migration that waits for a lock held by a long transaction fails within the wait, instead of queueing the table's traffic behind it", async () => {
    const database = await createScratchDatabase(adminUrl, "chillpb_lockwait");
    const directory = mkdtempSync(path.join(os.tmpdir(), "chillpb-migrations-"));
    try {
      writeFileSync(path.join(directory, "001.do.table.sql"), `CREATE TABLE "Busy" ("id" int PRIMARY KEY);\n`);
      await withClient(database.url, (client) => migrateFrom(client, { directory }));
      writeFileSync(path.join(directory, "002.do.busy_column.sql"), `ALTER TABLE "Busy" ADD COLUMN "note" text;\n`);
      await withClient(database.url, async (holder) => {
        // A long transaction that has read the table: ALTER TABLE needs it to end first.
        await holder.query(`BEGIN; SELECT * FROM "Busy"`);
        const started = Date.now();
        const failed = await withClient(database.url, (client) => migrateFrom(client, { directory })).then(
          () => null,
          (error: { code?: string }) => error,
        );
        expect(failed?.code).toBe("55P03");
        expect(Date.now() - started).toBeGreaterThanOrEqual(MIGRATION_LOCK_WAIT_MS - 100);
        expect(Date.now() - started).toBeLessThan(MIGRATION_LOCK_WAIT_MS + 5_000);
        await holder.query("ROLLBACK");
      });
      // Once the transaction is gone, the next start applies it.
      expect(await withClient(database.url, (client) => migrateFrom(client, { directory }))).toEqual(["002.do.busy_column.sql"]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
      await database.drop();
    }
  }, 30_000);

  it("squawk refuses a new migration that builds an index on a table without CONCURRENTLY, and takes the one that does", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "chillpb-squawk-"));
    const squawk = (file: string) =>
      spawnSync(path.resolve("node_modules/.bin/squawk"), ["--config", ".squawk.toml", "--reporter", "gcc", file], { encoding: "utf8" });
    try {
      const blocking = path.join(directory, "021.do.order_note_index.sql");
      writeFileSync(blocking, `CREATE INDEX "Order_note_idx" ON "Order" ("note");\n`);
      const refused = squawk(blocking);
      expect(refused.status).not.toBe(0);
      expect(refused.stdout).toContain("require-concurrent-index-creation");
      const concurrent = path.join(directory, "022.do.order_note_index.sql");
      writeFileSync(concurrent, `CREATE INDEX CONCURRENTLY "Order_note_idx" ON "Order" ("note");\n`);
      const taken = squawk(concurrent);
      expect(taken.stdout).toBe("");
      expect(taken.status).toBe(0);
      // And the shop's own new migrations pass it (what npm run lint checks).
      expect(squawk("prisma/migrations/*.sql").status).toBe(0);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
