// Applies prisma/migrations to the PostgreSQL database of
// DATABASE_URL with Postgrator, under a PostgreSQL advisory lock: several
// instances starting together migrate once, the others wait and then find
// nothing left to do. (`prisma migrate deploy` cannot be used on PostgreSQL
// with Prisma 6.19's JS engine: prisma/orm#27403, see docs/decisions/015.)
// The lock is a session lock: DATABASE_URL must reach PostgreSQL directly, or
// through a pooler in session mode, never one in transaction mode.
import path from "node:path";
import pg from "pg";
import Postgrator from "postgrator";

/** Any constant shared by every instance of this shop: the key of the start-up lock. */
export const STARTUP_LOCK_KEY = 727_001;

/** How long an instance waits for another to finish migrating before it gives up, unless MIGRATION_LOCK_TIMEOUT_MS says otherwise. */
export const DEFAULT_LOCK_TIMEOUT_MS = 5 * 60_000;

/** Another session held the start-up lock for longer than this instance would wait. */
export class StartupLockTimeoutError extends Error {}

function lockTimeoutMs() {
  const text = process.env.MIGRATION_LOCK_TIMEOUT_MS;
  if (text === undefined || text === "") return DEFAULT_LOCK_TIMEOUT_MS;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`MIGRATION_LOCK_TIMEOUT_MS must be a positive number of milliseconds, not ${JSON.stringify(text)}`);
  return value;
}

/** How often an instance waiting for the start-up lock asks for it again. */
const LOCK_POLL_MS = 100;

/**
 * Runs `work(client)` while holding the start-up lock (one instance at a
 * time). Waits for the lock at most MIGRATION_LOCK_TIMEOUT_MS (5 minutes),
 * then fails with a StartupLockTimeoutError that says how to find the holder,
 * so a stuck migration elsewhere stops this instance visibly instead of
 * leaving it waiting for ever.
 *
 * @template T
 * @param {string} url
 * @param {(client: pg.Client) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withStartupLock(url, work) {
  const timeoutMs = lockTimeoutMs();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let locked = false;
  try {
    // Asked for again and again, not waited for in one statement: a session
    // waiting in pg_advisory_lock is inside a transaction all the while, and
    // CREATE INDEX CONCURRENTLY (migration 023) waits for every transaction
    // older than its own, so the instance migrating and the instances waiting
    // for it waited for each other ("deadlock detected", decision 093).
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query("SELECT pg_try_advisory_lock($1) AS locked", [STARTUP_LOCK_KEY]);
      if (/** @type {{ locked: boolean }[]} */ (rows)[0]?.locked) break;
      if (Date.now() >= deadline) {
        throw new StartupLockTimeoutError(
          `Waited ${timeoutMs / 1000} s for the start-up lock (advisory lock ${STARTUP_LOCK_KEY}) and another session still holds it: ` +
            "another instance is migrating or seeding, or is stuck doing so. Find it with " +
            `SELECT pid, application_name, client_addr, backend_start, state, query FROM pg_stat_activity WHERE pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = ${STARTUP_LOCK_KEY} AND granted); ` +
            "stop that instance, or set MIGRATION_LOCK_TIMEOUT_MS to wait longer (docs/operations.md, Upgrades).",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_POLL_MS, Math.max(0, deadline - Date.now()))));
    }
    locked = true;
    return await work(client);
  } finally {
    // Ending the session releases the lock too; unlocking first lets the next instance in at once.
    if (locked) await client.query("SELECT pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

/**
 * Applies what is missing; answers the files applied. Call it holding the start-up lock.
 * Each file is sent as one query: PostgreSQL runs a file of several
 * statements as one transaction, and a file of a single statement as that
 * statement alone, which is how CREATE INDEX CONCURRENTLY (which no
 * transaction can hold) runs (docs/operations.md, Large tables).
 * @param {pg.Client} client
 * @param {{ directory?: string }} [options] where the NNN.do.*.sql files are (the shop's own by default)
 * @returns {Promise<string[]>}
 */
export async function migrate(client, { directory = "prisma/migrations" } = {}) {
  // A migration waits at most this long for a lock (the table's, or the transactions a concurrent index build
  // waits out): one queued behind a long transaction would hold every reader and writer of that table behind it.
  // Failed, the start stops and its supervisor tries again (decision 080).
  await client.query(`SET lock_timeout = ${MIGRATION_LOCK_WAIT_MS}`);
  try {
    return await runMigrations(client, directory);
  } finally {
    await client.query("RESET lock_timeout");
  }
}

/** How long a migration's statement waits for a lock before the migration fails. */
export const MIGRATION_LOCK_WAIT_MS = 5_000;

/** @param {pg.Client} client @param {string} directory */
async function runMigrations(client, directory) {
  const postgrator = new Postgrator({
    migrationPattern: path.resolve(directory, "*"),
    driver: "pg",
    database: client.database,
    schemaTable: "schema_migrations",
    execQuery: (query) => client.query(query),
  });
  const applied = await postgrator.migrate();
  return applied.map((migration) => path.basename(migration.filename));
}

/** How long a start-up waits for a table autovacuum is working on already before leaving it to autovacuum. */
const VACUUM_LOCK_WAIT_MS = 5_000;

/**
 * VACUUM (ANALYZE) for every table changed much since its statistics were
 * taken: a bulk import (orders loaded with SQL, a restore) before autovacuum
 * has come round. ANALYZE gives the planner the new sizes (decision 067);
 * VACUUM sets the visibility map, without which each index-only read (the
 * list's page ids and capped counts, the dashboard's open orders) visits
 * every row it counts: the dashboard took 224 ms at a million orders right
 * after an import (decision 072). Run at each start-up after the migrations;
 * a table within a tenth of its rows (or 1,000) of its statistics is left to
 * autovacuum, and so is one autovacuum is on already (its lock is not waited
 * for past VACUUM_LOCK_WAIT_MS). VACUUM takes no lock that stops reads or
 * writes. Answers what it did.
 * @param {pg.Client} client a session outside a transaction (VACUUM cannot run in one)
 * @param {{ lockWaitMs?: number }} [options]
 * @returns {Promise<{ table: string; changed: number; vacuumed: boolean }[]>}
 */
export async function vacuumStaleTables(client, { lockWaitMs = VACUUM_LOCK_WAIT_MS } = {}) {
  const { rows } = await client.query(
    `SELECT relname AS "table", n_mod_since_analyze::bigint AS changed
       FROM pg_stat_user_tables
      WHERE schemaname = current_schema()
        AND n_mod_since_analyze > greatest(1000, n_live_tup / 10)`,
  );
  const done = [];
  await client.query(`SET lock_timeout = ${Math.round(lockWaitMs)}`);
  try {
    for (const { table, changed } of rows) {
      try {
        await client.query(`VACUUM (ANALYZE) "${table.replaceAll('"', '""')}"`);
        done.push({ table, changed: Number(changed), vacuumed: true });
      } catch (error) {
        // 55P03: lock_not_available, autovacuum holds the table.
        if (/** @type {{ code?: string }} */ (error)?.code !== "55P03") throw error;
        done.push({ table, changed: Number(changed), vacuumed: false });
      }
    }
  } finally {
    await client.query("RESET lock_timeout");
  }
  return done;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  try {
    const applied = await withStartupLock(url, migrate);
    console.log(applied.length === 0 ? "The database schema is up to date." : `Applied ${applied.join(", ")}.`);
  } catch (error) {
    if (!(error instanceof StartupLockTimeoutError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
