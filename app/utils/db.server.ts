import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "~/generated/prisma/client";
import { registerPool, typeParsers } from "~/utils/sql.server";
import { retryConflicts } from "~/utils/database-errors.server";

/**
 * This process's connection pool: at most DATABASE_POOL_SIZE connections
 * (node-pg's own default, 10), and a query waits at most
 * DATABASE_POOL_TIMEOUT_MS for one to come free (or to open) before it fails
 * as "database busy" (isDatabaseBusy), which the shop answers 503 with
 * Retry-After. Unbounded (node-pg's default) a request would wait for as long
 * as the pool stays full. Read here, not in env.server.ts, so that the seed
 * scripts, which need no other setting, can make a client too.
 */
export type PoolSettings = { max: number; connectionTimeoutMillis: number };

/** DATABASE_POOL_SIZE and DATABASE_POOL_TIMEOUT_MS, or their defaults; an invalid value stops the start with its name. */
export function poolSettings(source: Record<string, string | undefined> = process.env): PoolSettings {
  return {
    max: positiveInteger(source, "DATABASE_POOL_SIZE", 10),
    connectionTimeoutMillis: positiveInteger(source, "DATABASE_POOL_TIMEOUT_MS", 5_000),
  };
}

function positiveInteger(source: Record<string, string | undefined>, name: string, fallback: number) {
  const text = source[name]?.trim();
  if (!text) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`Invalid environment:\n  - ${name}: must be a whole number above 0`);
  return Number(text);
}

/**
 * The Prisma client of DATABASE_URL, through node-pg, with this process's
 * pool settings. The server sets DATABASE_URL before the app loads: the
 * embedded PostgreSQL's when none was given (server/embedded-postgres.mjs).
 */
export function createPrismaClient(url = process.env.DATABASE_URL): PrismaClient {
  return createDatabase(url).db;
}

/**
 * Prisma's client and the node-pg pool under it, which the order path's SQL
 * (app/utils/sql.server.ts, decision 068) shares: one pool, one limit.
 * Nothing connects before the first query, so a module that only imports the
 * models needs no database; an idle pool does not keep the process alive.
 */
function createDatabase(url = process.env.DATABASE_URL) {
  // Timestamps read back as UTC and counts as numbers for the shop's own SQL (sql.server.ts); Prisma's adapter sets its own per query.
  const pool = new pg.Pool({ connectionString: url, ...poolSettings(), allowExitOnIdle: true, types: typeParsers });
  const health = { connectionErrors: 0 };
  const noteConnectionError = () => {
    health.connectionErrors++;
  };
  // A connection the server closes (a restart, a failover, pg_terminate_backend) emits "error" on its client. Lent
  // out between two queries (inside transaction(), or Prisma's transaction after its own listener is gone), nobody
  // listened, and the unhandled "error" event ended the process. So every client listens from the moment the pool
  // makes it until it is gone, idle or lent; the query in flight fails on its own (and is answered 503), and the
  // pool drops the broken client (pg-pool checks it is still queryable when it comes back) and opens new ones.
  pool.on("connect", (client) => client.on("error", noteConnectionError));
  // pg-pool also re-emits an idle client's error on the pool: without a listener that too would end the process.
  pool.on("error", noteConnectionError);
  return { pool, health, db: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

// One client per process, kept across dev rebuilds so they don't leak connections.
const globalForDb = globalThis as typeof globalThis & { __database?: ReturnType<typeof createDatabase> };
const database = (globalForDb.__database ??= createDatabase());
registerPool(database.pool);

export const db = database.db;

export type PoolState = { idle: number; active: number; waiting: number; connectionErrors: number };

/** This process's pool right now (the /metrics gauges): connections open, idle, lent out, and queries waiting for one. */
export function poolState(): PoolState {
  const { pool, health } = database;
  return { idle: pool.idleCount, active: pool.totalCount - pool.idleCount, waiting: pool.waitingCount, connectionErrors: health.connectionErrors };
}

/** The order path's SQL on the same pool: imported from here, so the pool is made before any query runs. */
export { advisoryXactLock, at, instant, sqlDb, sqlIn, transaction, withTryLock, type Sql, type SqlDatabase } from "~/utils/sql.server";
export {
  BUSY_HEADERS,
  BUSY_RETRY_AFTER_SECONDS,
  CONFLICT_MESSAGE,
  databaseFailure,
  isDatabaseBusy,
  isTransactionConflict,
  isUniqueViolation,
  shouldRetryLater,
} from "~/utils/database-errors.server";

/** db.$transaction(work), run again when it loses a race (retryConflicts): `work` must touch nothing but the database. */
export function inTransaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>, options?: { timeout?: number; maxWait?: number }): Promise<T> {
  return retryConflicts(() => db.$transaction(work, options));
}
