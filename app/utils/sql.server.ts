import pg from "pg";
import { retryConflicts } from "~/utils/database-errors.server";

/**
 * SQL through node-pg, on the same pool as Prisma (decision 068), for the
 * order path: placing an order, Stripe's payment notice and the rate limit.
 * There a Prisma model query costs about 1.2 ms of CPU and a node-pg query
 * 0.12 ms (measured on this machine: scripts/bench/orders.mjs), and an order
 * makes some thirty of them; everywhere else Prisma stays.
 *
 * Values go only as parameters ($1, $2, …), never into the text. Timestamps
 * are stored as Prisma stores them (UTC in `timestamp(3)` columns): written
 * as ISO strings (`at()`), whose zone PostgreSQL ignores for such a column,
 * and read back as UTC whatever the process's time zone.
 */

const UTC_TIMESTAMP = 1114;
const INT8 = 20;

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === UTC_TIMESTAMP) return (text: string) => new Date(`${text.replace(" ", "T")}Z`);
    // Counts and sums come back as bigint; they fit a number here.
    if (oid === INT8) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format as "text");
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** A UTC instant as a `timestamp(3)` column takes it. */
export const at = (date: Date) => date.toISOString();

/** A `timestamp(3)` column as JSON writes it ("2026-11-26T16:15:00.123", json_build_object): the UTC instant it holds. */
export const utcFromJson = (text: string) => new Date(`${text}Z`);

/** Something that runs a query: the pool, or a client inside a transaction. */
export type Sql = {
  query<Row>(text: string, values?: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }>;
};

function sqlOf(client: pg.Pool | pg.PoolClient): Sql {
  return {
    async query<Row>(text: string, values: readonly unknown[] = []) {
      const result = await client.query({ text, values: values as unknown[], types: typeParsers });
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
  };
}

let shared: { pool: pg.Pool; sql: Sql } | null = null;

/** The process's pool (made once, with Prisma's client: app/utils/db.server.ts). */
export function registerPool(pool: pg.Pool) {
  shared = { pool, sql: sqlOf(pool) };
}

function current() {
  if (!shared) throw new Error("No database pool: app/utils/db.server.ts makes it with the Prisma client");
  return shared;
}

/** One statement on the pool. */
export function query<Row>(text: string, values?: readonly unknown[]) {
  return current().sql.query<Row>(text, values);
}

/**
 * Runs `work` in one transaction on one connection: committed when it
 * returns, rolled back when it throws. A transaction PostgreSQL rolled back
 * as a deadlock or serialisation failure is run again, a few times
 * (retryConflicts): `work` must do nothing outside the database.
 */
export function transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  return retryConflicts(() => transactionOnce(work));
}

async function transactionOnce<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  const client = await current().pool.connect();
  // A connection whose ROLLBACK failed is broken: the pool closes it instead of lending it again.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(sqlOf(client));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollback: Error) => {
      broken = rollback;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Runs `work` holding PostgreSQL's advisory lock for `name` (one holder
 * across every instance), or answers null at once when another session holds
 * it: for a change that must happen one at a time and may wait on an outside
 * service meanwhile (a Stripe call), so it cannot sit in a transaction. The
 * lock lives on one pooled connection, kept for the while; should that
 * connection die, PostgreSQL lets go of the lock with it.
 */
export async function withTryLock<T>(name: string, work: () => Promise<T>): Promise<T | null> {
  const client = await current().pool.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS "locked"`, [name]);
    if (!rows[0]?.locked) return null;
    try {
      return await work();
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [name]).catch((error: Error) => {
        // Not unlocked: the connection is closed instead of lent again, which lets go of the lock.
        broken = error;
      });
    }
  } finally {
    client.release(broken);
  }
}

/** A write refused by a unique index (23505), as node-pg reports it; the constraint's name says which. */
export function isSqlUniqueViolation(error: unknown, constraint?: string) {
  if (!(error instanceof Error) || !("code" in error) || error.code !== "23505") return false;
  return constraint === undefined || ("constraint" in error && error.constraint === constraint);
}
