import {
  type CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql as sqlText,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type Transaction,
} from "kysely";
import pg from "pg";
import type { DB } from "~/generated/kysely/database";
import type { Prisma } from "~/generated/prisma/client";
import { retryConflicts } from "~/utils/database-errors.server";

/**
 * SQL through Kysely over node-pg, on the same pool as Prisma (decisions 068,
 * 083), for the order path: placing an order, Stripe's payment notice and the
 * rate limit. Kysely's row types are generated from prisma/schema.prisma
 * (prisma-kysely, app/generated/kysely/database.ts), so a statement that does
 * not return a column its caller reads fails the typecheck. Every statement
 * the shop writes itself (what is not a Prisma model query) is written with
 * the builder, none as text; what the builder cannot say (a function of
 * PostgreSQL's, a series of days) is a typed `sql` fragment inside one.
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
const DATE = 1082;

/** The pool's default type parsers (db.server.ts): Prisma's adapter passes its own with each of its queries. */
export const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === UTC_TIMESTAMP) return utcFromText;
    // A calendar day (a delivery day) at UTC midnight, as Prisma reads it, whatever the process's time zone.
    if (oid === DATE) return (text: string) => new Date(`${text}T00:00:00Z`);
    // Counts and sums come back as bigint; they fit a number here.
    if (oid === INT8) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format as "text");
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** A UTC instant as a `timestamp(3)` column takes it. */
export const at = (date: Date) => date.toISOString();

/**
 * A UTC instant as a typed expression, where PostgreSQL cannot tell a
 * parameter's type from a column (a comparison, a CASE): `at(date)` cast.
 */
export const instant = (date: Date) => sqlText<Date>`${at(date)}::timestamp(3)`;

/**
 * A `timestamp(3)` column as text ("2026-11-26 16:15:00.123", a column cast
 * to text inside jsonArrayFrom, where Kysely's typed Date would be a string):
 * the UTC instant it holds, as the pool's own parser reads it.
 */
export const utcFromText = (text: string) => new Date(`${text.replace(" ", "T")}Z`);

/** Kysely on the pool, or inside a transaction: its statements are typed by the schema. */
export type SqlDatabase = Kysely<DB> | Transaction<DB>;

/** Something that runs statements: the pool, or one transaction's connection. */
export type Sql = {
  /** Kysely's builder, typed by the schema. */
  db: SqlDatabase;
};

function sqlOf(database: SqlDatabase): Sql {
  return { db: database };
}

/**
 * Whether a compiled statement answers rows (a SELECT, a WITH, anything with
 * RETURNING) or only a count: Prisma runs the one with $queryRawUnsafe and
 * the other with $executeRawUnsafe.
 */
function answersRows(query: CompiledQuery) {
  const node: { kind: string; returning?: unknown } = query.query;
  if (node.kind === "SelectQueryNode" || node.returning !== undefined) return true;
  if (node.kind !== "RawNode") return false;
  return /^\s*(select|with|values)\b/i.test(query.sql) || /\breturning\b/i.test(query.sql);
}

/**
 * Kysely's connection inside a Prisma interactive transaction: its
 * statements are compiled by Kysely and sent through Prisma's public raw
 * queries ($queryRawUnsafe, $executeRawUnsafe), so they are part of that
 * transaction. Kysely's documented way to run on another client (a dialect
 * of its own driver), as prisma-extension-kysely does.
 */
class PrismaTransactionConnection implements DatabaseConnection {
  constructor(private readonly tx: Prisma.TransactionClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = [...query.parameters];
    if (answersRows(query)) {
      const rows = await this.tx.$queryRawUnsafe<R[]>(query.sql, ...values);
      return { rows, numAffectedRows: BigInt(rows.length) };
    }
    const count = await this.tx.$executeRawUnsafe(query.sql, ...values);
    return { rows: [], numAffectedRows: BigInt(count) };
  }

  // eslint-disable-next-line require-yield -- Kysely's interface; the shop never streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming is not supported inside a Prisma transaction");
  }
}

/** The driver of that connection: the transaction is Prisma's, begun and ended by inTransaction, never by Kysely. */
class PrismaTransactionDriver implements Driver {
  private readonly connection: PrismaTransactionConnection;
  constructor(tx: Prisma.TransactionClient) {
    this.connection = new PrismaTransactionConnection(tx);
  }
  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error("Already inside Prisma's transaction: start none within it");
  }
  async commitTransaction(): Promise<void> {
    throw new Error("Prisma's transaction commits when its work returns");
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error("Prisma's transaction rolls back when its work throws");
  }
  async releaseConnection() {}
  async destroy() {}
}

const inPrisma = new WeakMap<Prisma.TransactionClient, Sql>();

/**
 * The shop's SQL inside a Prisma transaction (inTransaction): the same typed
 * statements as on the pool, in that transaction. So a business write that
 * both kinds of transaction make (queueing an email, a day's sales, a stock
 * change, paying an order) is written once, with Kysely, and run in either
 * (decision 084).
 */
export function sqlIn(tx: Prisma.TransactionClient): Sql {
  let sql = inPrisma.get(tx);
  if (!sql) {
    const driver = new PrismaTransactionDriver(tx);
    sql = sqlOf(
      new Kysely<DB>({
        dialect: {
          createAdapter: () => new PostgresAdapter(),
          createDriver: () => driver,
          createIntrospector: (db) => new PostgresIntrospector(db),
          createQueryCompiler: () => new PostgresQueryCompiler(),
        },
      }),
    );
    inPrisma.set(tx, sql);
  }
  return sql;
}

/**
 * PostgreSQL's advisory lock for `name`, held until the transaction ends: one
 * holder at a time across every instance. Selected as a row, not as the
 * function's void, which Prisma's raw query (under sqlIn) cannot read.
 */
export async function advisoryXactLock(sql: Sql, name: string) {
  await sqlText`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(sql.db);
}

let shared: { pool: pg.Pool; kysely: Kysely<DB>; sql: Sql } | null = null;

/** The process's pool (made once, with Prisma's client: app/utils/db.server.ts). */
export function registerPool(pool: pg.Pool) {
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  shared = { pool, kysely, sql: sqlOf(kysely) };
}

/** Kysely on the pool: one statement, typed by the schema. */
export function sqlDb() {
  return current().kysely;
}

function current() {
  if (!shared) throw new Error("No database pool: app/utils/db.server.ts makes it with the Prisma client");
  return shared;
}

/**
 * Runs `work` in one transaction on one connection: committed when it
 * returns, rolled back when it throws. A transaction PostgreSQL rolled back
 * as a deadlock or serialisation failure is run again, a few times
 * (retryConflicts): `work` must do nothing outside the database.
 */
export function transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  return retryConflicts(() =>
    current()
      .kysely.transaction()
      .execute((trx) => work(sqlOf(trx))),
  );
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
