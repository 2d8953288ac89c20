import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { STARTUP_LOCK_KEY } from "../../scripts/migrate-postgres.mjs";
import { createScratchDatabase, withClient } from "../../scripts/scratch-postgres.mjs";

describe("the PostgreSQL schema", () => {
  it("is the one generated from prisma/schema.prisma, so its migrations describe the same models", () => {
    const check = spawnSync(process.execPath, ["scripts/postgres-schema.mjs", "--check"], { encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});

function migrate(url: string, env: Record<string, string> = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/migrate-postgres.mjs"], { env: { ...process.env, DATABASE_URL: url, ...env } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`exit ${code}: ${output}`))));
  });
}

const testDatabase = inject("testDatabase");

describe.runIf(testDatabase.provider === "postgres")("PostgreSQL migrations at start", () => {
  it("three instances starting together migrate once; the others find the schema up to date", async () => {
    if (testDatabase.provider !== "postgres") return;
    const { url, drop } = await createScratchDatabase(testDatabase.adminUrl, "chillpb_migrate");
    try {
      const files = readdirSync("prisma/postgres/migrations").sort();
      const outputs = await Promise.all([migrate(url), migrate(url), migrate(url)]);
      expect(outputs.filter((output) => output === `Applied ${files.join(", ")}.`)).toHaveLength(1);
      expect(outputs.filter((output) => output === "PostgreSQL schema is up to date.")).toHaveLength(2);
      const applied = await withClient(url, (client) => client.query("SELECT version FROM schema_migrations WHERE version > 0 ORDER BY version"));
      expect(applied.rows.map((row: { version: string }) => Number(row.version))).toEqual(files.map((_, index) => index + 1));
    } finally {
      await drop();
    }
  });

  it("an instance that cannot get the start-up lock within MIGRATION_LOCK_TIMEOUT_MS stops and says how to find the holder", async () => {
    if (testDatabase.provider !== "postgres") return;
    const { url, drop } = await createScratchDatabase(testDatabase.adminUrl, "chillpb_lock");
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
        expect(failure.message).toContain("FROM pg_locks WHERE locktype = 'advisory' AND objid = 727001");
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

