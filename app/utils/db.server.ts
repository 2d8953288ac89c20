import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "~/generated/prisma/client";
import { registerPool } from "~/utils/sql.server";

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
  const pool = new pg.Pool({ connectionString: url, ...poolSettings(), allowExitOnIdle: true });
  // An idle connection the server closed (a restart, a dropped database) leaves the pool by itself; without a
  // listener its error would end the process. Prisma's adapter listens only while it is connected.
  pool.on("error", () => undefined);
  return { pool, db: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

// One client per process, kept across dev rebuilds so they don't leak connections.
const globalForDb = globalThis as typeof globalThis & { __database?: ReturnType<typeof createDatabase> };
const database = (globalForDb.__database ??= createDatabase());
registerPool(database.pool);

export const db = database.db;

/** The order path's SQL on the same pool: imported from here, so the pool is made before any query runs. */
export { at, isSqlUniqueViolation, query, transaction, type Sql } from "~/utils/sql.server";

/** A write refused by a unique index (Prisma's P2002): someone else wrote that row first. */
export function isUniqueViolation(error: unknown) {
  return error instanceof Error && "code" in error && error.code === "P2002";
}

/**
 * node-pg's pool could give no connection in time: every one was in use for
 * DATABASE_POOL_TIMEOUT_MS, or a new one did not open within it. Prisma's
 * driver adapter passes these errors of pg-pool through as they are (an
 * Error with no code), so their messages are what identifies them;
 * tests/integration/database-busy.test.ts holds them to the installed pg-pool.
 */
const POOL_TIMEOUT_MESSAGES = new Set(["timeout exceeded when trying to connect", "Connection terminated due to connection timeout"]);

/**
 * Whether a query failed because no database connection could be had: the
 * pool stayed full (or a new connection did not open) for
 * DATABASE_POOL_TIMEOUT_MS, or PostgreSQL refused another connection (53300,
 * too many connections; Prisma's P2037, or P2010 for a raw query). The shop
 * is busy, not broken: such a request is answered 503 with Retry-After.
 */
export function isDatabaseBusy(error: unknown) {
  if (!(error instanceof Error)) return false;
  if (POOL_TIMEOUT_MESSAGES.has(error.message)) return true;
  // The same refusal met by a query of the order path's SQL (node-pg's error, decision 068).
  if ("code" in error && error.code === "53300") return true;
  const meta = "meta" in error ? error.meta : null;
  const cause = isRecord(meta) && isRecord(meta.driverAdapterError) ? meta.driverAdapterError.cause : null;
  return isRecord(cause) && cause.kind === "TooManyConnections";
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** How long a client told the shop is busy waits before it tries again (Retry-After, in seconds). */
export const BUSY_RETRY_AFTER_SECONDS = 5;
