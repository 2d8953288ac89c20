import { execFileSync, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { STARTUP_LOCK_KEY } from "../../scripts/migrate.mjs";
import { createScratchDatabase, withClient } from "../../scripts/scratch-postgres.mjs";

function migrate(url: string, env: Record<string, string> = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/migrate.mjs"], { env: { ...process.env, DATABASE_URL: url, ...env } });
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
  "Order_first_name_idx",
  "Order_last_name_idx",
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
  it(
    "applying every migration gives the schema prisma/schema.prisma describes, plus only the documented hand-written indexes",
    async () => {
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
    },
    60_000,
  );
});
