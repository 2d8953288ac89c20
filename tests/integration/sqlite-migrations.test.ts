import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient, type Client } from "@libsql/client";
import { afterAll, describe, expect, inject, it } from "vitest";

/**
 * prisma/migrations against prisma/schema.prisma: `prisma migrate deploy` of
 * every migration must give the tables, columns, indexes and foreign keys that
 * Prisma writes for the schema from nothing. A migration that misses a column
 * or an index, or adds one the schema does not have, fails here. SQLite only:
 * the PostgreSQL migrations have their own check (postgres-migrations.test.ts).
 */

const testDatabase = inject("testDatabase");
const prisma = path.resolve("node_modules/.bin/prisma");
const scratch = mkdtempSync(path.join(os.tmpdir(), "chillpb-sqlite-schema-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Left out of the comparison: Prisma's own history table, and SQLite's
 * statistics table, which the admin_order_queries migration fills on purpose
 * to guide the query planner (decision 018).
 */
const OUTSIDE_THE_SCHEMA = ["_prisma_migrations", "sqlite_stat1"];

async function describeSchema(client: Client) {
  const tables = (await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).rows
    .map((row) => String(row.name))
    .filter((name) => !OUTSIDE_THE_SCHEMA.includes(name) && !name.startsWith("sqlite_"));
  const schema: Record<string, unknown> = {};
  for (const table of tables) {
    const columns = await client.execute({ sql: `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY name`, args: [table] });
    const indexes = await client.execute({ sql: `SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY name`, args: [table] });
    const indexColumns: Record<string, string[]> = {};
    for (const index of indexes.rows) {
      const info = await client.execute({ sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", args: [String(index.name)] });
      indexColumns[String(index.name)] = info.rows.map((row) => String(row.name));
    }
    const foreignKeys = await client.execute({
      sql: `SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY "from"`,
      args: [table],
    });
    schema[table] = {
      columns: columns.rows.map((row) => ({ ...row })),
      indexes: indexes.rows.map((row) => ({ ...row, columns: indexColumns[String(row.name)] })),
      foreignKeys: foreignKeys.rows.map((row) => ({ ...row })),
    };
  }
  return schema;
}

async function withDatabase<T>(file: string, work: (client: Client) => Promise<T>) {
  const client = createClient({ url: `file:${file}` });
  try {
    return await work(client);
  } finally {
    client.close();
  }
}

describe.runIf(testDatabase.provider === "sqlite")("SQLite migrations against the schema", () => {
  it(
    "prisma migrate deploy of every migration gives the tables, columns, indexes and foreign keys of prisma/schema.prisma",
    async () => {
      const migrated = path.join(scratch, "migrated.db");
      const generated = path.join(scratch, "generated.db");
      // Through prisma.config.ts, as `npm start` migrates: the JavaScript engine, nothing downloaded.
      execFileSync(prisma, ["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: `file:${migrated}` }, stdio: "pipe" });
      const fromEmpty = execFileSync(prisma, ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
      await withDatabase(generated, (client) => client.executeMultiple(fromEmpty));

      const want = await withDatabase(generated, describeSchema);
      const got = await withDatabase(migrated, describeSchema);
      expect(Object.keys(want).length).toBeGreaterThan(10);
      expect(got).toEqual(want);
    },
    60_000,
  );
});
