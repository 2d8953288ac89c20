import { readdirSync } from "node:fs";
import path from "node:path";
import { sqlDb } from "~/utils/db.server";
import { describeError } from "~/utils/errors.server";
import { logger } from "~/utils/logger.server";
import { release, type Release } from "~/utils/release.server";

/**
 * Liveness and readiness (decision 050). Alive: the process answers (no
 * database, so a database outage does not make a supervisor restart every
 * instance). Ready for traffic: not stopping, the database answers within
 * READY_DATABASE_TIMEOUT_MS, and its migrations are at least this release's
 * newest; a load balancer sends requests only to ready instances.
 */

/** Longer than this and the database counts as not answering: a probe must not hang. */
export const READY_DATABASE_TIMEOUT_MS = 3_000;

const MIGRATION_FILE = /^(\d+)\.do\.[^/]+\.sql$/;

/** The number of the newest migration this release ships (prisma/migrations/NNN.do.*.sql), null when it cannot be read. */
export function newestMigration(directory = path.resolve("prisma/migrations")): number | null {
  try {
    const numbers = readdirSync(directory)
      .map((name) => MIGRATION_FILE.exec(name)?.[1])
      .filter((number): number is string => number !== undefined)
      .map(Number);
    return numbers.length > 0 ? Math.max(...numbers) : null;
  } catch {
    return null;
  }
}

// Read once: the files of a running release do not change.
const releaseMigration = newestMigration();

const globalForHealth = globalThis as typeof globalThis & { __shuttingDown?: boolean };

/** server.mjs, on SIGTERM or SIGINT: from now on this instance is not ready, so the load balancer stops sending to it. */
export function markShuttingDown() {
  globalForHealth.__shuttingDown = true;
}

export type Liveness = { status: "alive"; release: Release };

/** The process answers: that is all liveness says. */
export function liveness(): Liveness {
  return { status: "alive", release };
}

export type Readiness =
  | { status: "ready"; release: Release; migrations: { database: number | null; release: number | null } }
  | { status: "not-ready"; reason: string; release: Release };

/** Postgrator's own table (server/migrate.mjs), outside schema.prisma: the one column read of it. */
type PostgratorTables = { schema_migrations: { version: number } };

/** The version Postgrator recorded last (server/migrate.mjs), or null when none is. */
async function databaseMigration(): Promise<number | null> {
  const row = await sqlDb()
    .withTables<PostgratorTables>()
    .selectFrom("schema_migrations")
    .select((eb) => eb.fn.max("version").as("version"))
    .executeTakeFirst();
  return row?.version ?? null;
}

function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this instance should get traffic, and if not why. A database ahead
 * of this release (a newer release migrated it, decision 032's expand and
 * contract) is ready: the old release runs on the expanded schema until it
 * is replaced. Behind it is not: this release's code expects a migration
 * that is not applied.
 */
export async function readiness({ expected = releaseMigration, timeoutMs = READY_DATABASE_TIMEOUT_MS } = {}): Promise<Readiness> {
  if (globalForHealth.__shuttingDown) return { status: "not-ready", reason: "shutting down", release };
  let applied: number | null;
  try {
    applied = await withinTimeout(databaseMigration(), timeoutMs);
  } catch (error) {
    // The details (an address, a code) go to the log only: the answer is public.
    logger.warn({ err: describeError(error) }, "readiness: the database did not answer");
    return { status: "not-ready", reason: "database unavailable", release };
  }
  if (expected !== null && (applied === null || applied < expected)) {
    return { status: "not-ready", reason: `migrations pending: the database is at ${applied ?? "none"}, this release needs ${expected}`, release };
  }
  return { status: "ready", release, migrations: { database: applied, release: expected } };
}
