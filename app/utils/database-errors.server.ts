/**
 * How the shop tells what went wrong in the database (a busy pool, a
 * database that is not there, a transaction that lost a race) and what it
 * does about it: the answers are 503 with Retry-After, 503, and a retry then
 * 409 (decisions 043, 080). Shared by the two ways the shop queries
 * (app/utils/db.server.ts, app/utils/sql.server.ts).
 */

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
  return driverCause(error).kind === "TooManyConnections";
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/**
 * Why PostgreSQL was not there: the server ended the connection (57P01 on a
 * restart or pg_terminate_backend, 57P02 on a crash), is starting or stopping
 * (57P03), or a connection could not be opened or was lost (SQLSTATE class
 * 08, and the socket's own codes). Node-pg reports a connection that ended
 * with these messages and no code.
 */
const UNAVAILABLE_CODES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006", "08007"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const UNAVAILABLE_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
];
/**
 * The same, as Prisma's driver adapter names them (meta.driverAdapterError.cause.kind), and Prisma's own codes:
 * P1001/P1002 the server not reached, P1017 it closed the connection, P2028 an interactive transaction whose
 * connection went away under it (seen in the restart test: "Transaction API error" from the stand-in's payment).
 */
const UNAVAILABLE_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2028"]);

/**
 * The error PostgreSQL (or the socket) gave, as node-pg has it or as Prisma's
 * driver adapter passed it on: inside a Prisma error (meta.driverAdapterError),
 * or as the adapter's own DriverAdapterError, which Prisma lets through from
 * an interactive transaction and a raw query.
 */
function driverCause(error: Error): { code: string | null; kind: string | null; message: string } {
  const meta = "meta" in error ? error.meta : null;
  const cause =
    isRecord(meta) && isRecord(meta.driverAdapterError)
      ? meta.driverAdapterError.cause
      : error.name === "DriverAdapterError" && isRecord(error.cause)
        ? error.cause
        : null;
  if (isRecord(cause)) {
    const code = typeof cause.originalCode === "string" ? cause.originalCode : typeof cause.code === "string" ? cause.code : null;
    return {
      code,
      kind: typeof cause.kind === "string" ? cause.kind : null,
      message: typeof cause.originalMessage === "string" ? cause.originalMessage : typeof cause.message === "string" ? cause.message : "",
    };
  }
  return { code: "code" in error && typeof error.code === "string" ? error.code : null, kind: null, message: error.message };
}

/**
 * Whether a query failed because the database was not there: restarted,
 * failed over, shut down, unreachable, or the connection was cut. Like a busy
 * database, the shop answers 503 with Retry-After: nothing was done (a
 * transaction cut off is rolled back), the pool opens fresh connections, and
 * the same request a few seconds later goes through. /readyz says not ready
 * meanwhile.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ("code" in error && typeof error.code === "string" && UNAVAILABLE_PRISMA_CODES.has(error.code)) return true;
  const cause = driverCause(error);
  if (cause.kind && UNAVAILABLE_ADAPTER_KINDS.has(cause.kind)) return true;
  if (cause.code && (UNAVAILABLE_CODES.has(cause.code) || SOCKET_CODES.has(cause.code))) return true;
  // Prisma passes on an error its adapter does not know as it is, or with the message inside its own.
  return UNAVAILABLE_MESSAGES.some((message) => cause.message === message || error.message.endsWith(message));
}

/**
 * Whether a transaction lost a race with another and was rolled back by
 * PostgreSQL: a deadlock (40P01) or a serialisation failure (40001; Prisma's
 * P2034). Run again, it most likely passes: the transaction helpers retry it
 * (retryConflicts) and the edge answers what is left 409.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ("code" in error && error.code === "P2034") return true;
  const cause = driverCause(error);
  return cause.kind === "TransactionWriteConflict" || cause.code === "40001" || cause.code === "40P01";
}

/**
 * A write refused by a unique index: someone else wrote that row first. The
 * one check for both ways a statement reaches PostgreSQL: Prisma's model
 * queries (P2002), node-pg and Kysely (23505), and Kysely's statements inside
 * a Prisma transaction (the adapter's error, with PostgreSQL's code). With
 * `constraint`, only a refusal by that index.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof Error)) return false;
  const cause = driverCause(error);
  const unique = ("code" in error && error.code === "P2002") || cause.code === "23505" || cause.kind === "UniqueConstraintViolation";
  return unique && (constraint === undefined || constraintOf(error) === constraint);
}

/** Which index refused a write: node-pg names it; through Prisma's adapter only PostgreSQL's message does ("… unique constraint "X""). */
function constraintOf(error: Error): string | null {
  if ("constraint" in error && typeof error.constraint === "string") return error.constraint;
  return /unique constraint "([^"]+)"/.exec(driverCause(error).message)?.[1] ?? null;
}

/** What a failed request met in the database, for its answer: 503 with Retry-After, 409, or nothing of the kind (null: a 500). */
export function databaseFailure(error: unknown): "busy" | "unavailable" | "conflict" | null {
  if (isDatabaseBusy(error)) return "busy";
  if (isDatabaseUnavailable(error)) return "unavailable";
  if (isTransactionConflict(error)) return "conflict";
  return null;
}

/** Busy or away: the request did nothing, and the same request in a few seconds most likely goes through (503 with Retry-After). */
export function shouldRetryLater(error: unknown): boolean {
  const failure = databaseFailure(error);
  return failure === "busy" || failure === "unavailable";
}

/** What a request that lost a race is told when the transaction lost it on every try (409). */
export const CONFLICT_MESSAGE = "Something else changed this at the same moment. Please try again.";

/** How often a transaction that lost a race is run again before its caller is answered 409. */
const CONFLICT_ATTEMPTS = 4;

/**
 * Runs `work` (one whole transaction: it must do nothing outside the
 * database, since it may run more than once) again when PostgreSQL rolled it
 * back as a deadlock or serialisation failure, after a short random pause so
 * the two sides do not meet again; the last conflict is thrown.
 */
export async function retryConflicts<T>(work: () => Promise<T>, attempts = CONFLICT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** How long a client told the shop is busy, or its database away, waits before it tries again (Retry-After, in seconds). */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** The headers of every answer that says so: when to try again, and never from a cache. */
export const BUSY_HEADERS = { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } as const;
