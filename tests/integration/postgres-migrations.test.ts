import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { createScratchDatabase, withClient } from "../../scripts/scratch-postgres.mjs";

describe("the PostgreSQL schema", () => {
  it("is the one generated from prisma/schema.prisma, so its migrations describe the same models", () => {
    const check = spawnSync(process.execPath, ["scripts/postgres-schema.mjs", "--check"], { encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});

function migrate(url: string) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/migrate-postgres.mjs"], { env: { ...process.env, DATABASE_URL: url } });
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
});
