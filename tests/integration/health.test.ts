import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeRelease, release } from "~/utils/release.server";
import { markShuttingDown, newestMigration, readiness } from "~/services/health.server";
import { loader as healthz } from "~/routes/healthz";
import { loader as readyz } from "~/routes/readyz";

/**
 * /healthz (alive) and /readyz (ready for traffic), decision 050. The
 * process side (503 once SIGTERM has arrived, the start-up line naming the
 * release) is in tests/e2e/server-process.spec.ts.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const packageVersion = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
const headCommit = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();

describe("the release", () => {
  it("is package.json's version and the checkout's commit", () => {
    expect(release).toEqual({ version: packageVersion, commit: headCommit });
    expect(describeRelease()).toBe(`${packageVersion} (${headCommit.slice(0, 7)})`);
    expect(describeRelease({ version: "1.2.3", commit: null })).toBe("1.2.3");
  });
});

describe("/healthz: liveness", () => {
  it("answers 200 with the release, without asking the database", async () => {
    const query = vi.spyOn(pg.Client.prototype, "query").mockRejectedValue(new Error("the database is down"));
    const response = healthz();
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "alive", release: { version: packageVersion, commit: headCommit } });
    expect(query).not.toHaveBeenCalled();
  });
});

describe("/readyz: readiness", () => {
  it("answers 200 when the database is at this release's newest migration", async () => {
    const newest = newestMigration();
    expect(newest).toBeGreaterThanOrEqual(11);
    const response = await readyz();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ready",
      release: { version: packageVersion, commit: headCommit },
      migrations: { database: newest, release: newest },
    });
  });

  it("is not ready while a migration of this release is not applied, and is ready on a database ahead of it", async () => {
    const newest = newestMigration()!;
    expect(await readiness({ expected: newest + 1 })).toEqual({
      status: "not-ready",
      reason: `migrations pending: the database is at ${newest}, this release needs ${newest + 1}`,
      release,
    });
    // A newer release migrated the database (expand and contract): the old one still serves until it is replaced.
    expect(await readiness({ expected: newest - 1 })).toMatchObject({ status: "ready" });
  });

  it("answers 503 when the database fails or does not answer in time, and keeps the details for the log", async () => {
    // The readiness check's one statement, on the pool.
    const query = vi.spyOn(pg.Client.prototype, "query");
    query.mockRejectedValueOnce(Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" }));
    const failed = await readyz();
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ status: "not-ready", reason: "database unavailable", release });

    query.mockReturnValueOnce(new Promise(() => undefined) as never);
    expect(await readiness({ timeoutMs: 50 })).toEqual({ status: "not-ready", reason: "database unavailable", release });
  });

  it("answers 503 once the process is shutting down", async () => {
    markShuttingDown();
    const response = await readyz();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "not-ready", reason: "shutting down", release });
  });
});

describe("the newest migration of a release", () => {
  it("is the highest NNN of prisma/migrations/NNN.do.*.sql, null without the folder", () => {
    expect(newestMigration("no/such/folder")).toBeNull();
    expect(newestMigration()).toBe(
      Math.max(
        ...execFileSync("ls", ["prisma/migrations"], { encoding: "utf8" })
          .split("\n")
          .filter(Boolean)
          .map((name) => Number(name.split(".")[0])),
      ),
    );
  });
});
