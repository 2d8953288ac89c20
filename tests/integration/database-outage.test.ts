import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { sql as raw } from "kysely";
import { databaseFailure, db, poolState, sqlDb, transaction } from "~/utils/db.server";
import { withClient } from "../../scripts/scratch-postgres.mjs";

/**
 * A connection the server cuts (a restart, a failover, pg_terminate_backend)
 * while the shop holds it: its client's "error" event must find a listener,
 * whatever the client is doing (node-pg's pool listens only to idle ones, so
 * one lent to a transaction ended the process), and what the caller gets must
 * read as "the database was not there" (503), never as a fault of ours. Two
 * transactions that deadlock are run again until both pass.
 */

/** Cuts the backend `pid` from a connection of its own, as `pg_ctl restart` or a failover would. */
async function cut(pid: number) {
  const { rows } = await withClient(process.env.DATABASE_URL!, (client) => client.query<{ cut: boolean }>(`SELECT pg_terminate_backend($1) AS "cut"`, [pid]));
  expect(rows[0]?.cut).toBe(true);
  // Its ErrorResponse (57P01) and the socket's end reach the client a moment later.
  await sleep(200);
}

describe("a connection cut while it is lent out", () => {
  it("inside transaction(), between two statements: the transaction fails as 'unavailable' and the process goes on", async () => {
    const before = poolState().connectionErrors;
    const failed = await transaction(async (sql) => {
      const { pid } = await sql.db.selectNoFrom(raw<number>`pg_backend_pid()`.as("pid")).executeTakeFirstOrThrow();
      await cut(pid);
      await raw`SELECT 1`.execute(sql.db);
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    expect(databaseFailure(failed)).toBe("unavailable");
    expect(poolState().connectionErrors).toBeGreaterThan(before);
    // The pool let go of the broken client and opens a new one.
    expect(
      await sqlDb()
        .selectNoFrom(raw<number>`1`.as("one"))
        .execute(),
    ).toEqual([{ one: 1 }]);
  });

  it("inside Prisma's interactive transaction: the same", async () => {
    const failed = await db
      .$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS "pid"`;
        await cut(row!.pid);
        await tx.$queryRaw`SELECT 1`;
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(Error);
    expect(databaseFailure(failed)).toBe("unavailable");
    expect(await db.$queryRaw`SELECT 1 AS "one"`).toEqual([{ one: 1 }]);
  });

  it("a query on a connection that was cut while idle in the pool is not an error of the shop's: it reads as 'unavailable' or passes on a fresh one", async () => {
    const { pid } = await sqlDb()
      .selectNoFrom(raw<number>`pg_backend_pid()`.as("pid"))
      .executeTakeFirstOrThrow();
    await cut(pid);
    const answer = await db.product.count().then(
      (count) => ({ ok: true as const, count }),
      (error: unknown) => ({ ok: false as const, failure: databaseFailure(error) }),
    );
    expect(answer.ok ? "passed" : answer.failure).toMatch(/^(passed|unavailable)$/);
  });
});

describe("two transactions that deadlock", () => {
  it("are both run to the end: the one PostgreSQL rolled back is run again (40P01), within the transaction helper", async () => {
    // A table of the test's own, outside the schema: written as text.
    await raw`CREATE TABLE IF NOT EXISTS "deadlock_probe" ("id" int PRIMARY KEY, "n" int NOT NULL)`.execute(sqlDb());
    await raw`INSERT INTO "deadlock_probe" VALUES (1, 0), (2, 0) ON CONFLICT ("id") DO UPDATE SET "n" = 0`.execute(sqlDb());
    let runs = 0;
    // Each locks one row, waits until the other has locked its own, then asks for the other's: a deadlock, once.
    let bothLocked!: () => void;
    let locked = 0;
    const meet = new Promise<void>((resolve) => (bothLocked = resolve));
    const crossing = (first: number, second: number) =>
      transaction(async (sql) => {
        runs++;
        await raw`UPDATE "deadlock_probe" SET "n" = "n" + 1 WHERE "id" = ${first}`.execute(sql.db);
        if (++locked === 2) bothLocked();
        await Promise.race([meet, sleep(2_000)]);
        await raw`UPDATE "deadlock_probe" SET "n" = "n" + 1 WHERE "id" = ${second}`.execute(sql.db);
      });
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(runs).toBe(3);
    expect((await raw<{ id: number; n: number }>`SELECT "id", "n" FROM "deadlock_probe" ORDER BY "id"`.execute(sqlDb())).rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });
});
