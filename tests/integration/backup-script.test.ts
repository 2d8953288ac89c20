import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * scripts/backup.sh (docs/operations.md, Backups; decision 080): a dump of
 * the database that restores, old dumps deleted, and the time of the last
 * good one where node_exporter's textfile collector reads it; a failed dump
 * leaves no file and the last good time as it was.
 */

const run = promisify(execFile);
const work = mkdtempSync(path.join(os.tmpdir(), "chillpb-backup-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function backup(env: Record<string, string>) {
  const url = new URL(process.env.DATABASE_URL!);
  const environment: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    PGHOST: url.hostname,
    PGPORT: url.port,
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: url.pathname.slice(1),
    BACKUP_DIR: path.join(work, "dumps"),
    TEXTFILE_DIR: work,
    ...env,
  };
  return run("sh", ["scripts/backup.sh"], { env: environment as NodeJS.ProcessEnv });
}

const lastSuccess = () =>
  Number(/^chillpb_backup_last_success_timestamp_seconds (\d+)$/m.exec(readFileSync(path.join(work, "chillpb_backup.prom"), "utf8"))?.[1]);

describe("the nightly backup", () => {
  it("writes a dump that pg_restore reads, deletes the ones past their days, and records its time for Prometheus", async () => {
    const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    const old = path.join(work, "dumps", `${database}-2026-01-01.dump`);
    await run("mkdir", ["-p", path.join(work, "dumps")]);
    writeFileSync(old, "an old dump");
    utimesSync(old, new Date("2026-01-01"), new Date("2026-01-01"));

    const before = Math.floor(Date.now() / 1000);
    const { stdout } = await backup({});
    expect(stdout).toMatch(/^Backed up .+\.dump \(\d+ bytes\)\.$/m);
    const dumps = readdirSync(path.join(work, "dumps"));
    expect(dumps).toEqual([`${database}-${new Date().toISOString().slice(0, 10)}.dump`]);
    const { stdout: listing } = await run("pg_restore", ["--list", path.join(work, "dumps", dumps[0]!)]);
    expect(listing).toMatch(/ TABLE public Order /);
    expect(lastSuccess()).toBeGreaterThanOrEqual(before);
    expect(readdirSync(work).filter((name) => name.startsWith("chillpb_backup.prom"))).toEqual(["chillpb_backup.prom"]);
  });

  it("fails without a file and leaves the last good time when the dump fails", async () => {
    const recorded = lastSuccess();
    const failed = await backup({ PGDATABASE: "no_such_database" }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("the last good one's time is left as it was");
    expect(readdirSync(path.join(work, "dumps")).filter((name) => name.includes("no_such_database"))).toEqual([]);
    expect(lastSuccess()).toBe(recorded);
  });
});
