// Applies prisma/postgres/migrations to the PostgreSQL database of
// DATABASE_URL with Postgrator, under a PostgreSQL advisory lock: several
// instances starting together migrate once, the others wait and then find
// nothing left to do. (`prisma migrate deploy` cannot be used on PostgreSQL
// with Prisma 6.19's JS engine: prisma/orm#27403, see docs/decisions/015.)
import path from "node:path";
import pg from "pg";
import Postgrator from "postgrator";

/** Any constant shared by every instance of this shop: the key of the start-up lock. */
const STARTUP_LOCK_KEY = 727_001;

/** Runs `work(client)` while holding the start-up lock (one instance at a time). */
export async function withStartupLock(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
    return await work(client);
  } finally {
    // Ending the session releases the lock too; unlocking first lets the next instance in at once.
    await client.query("SELECT pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

/** Applies what is missing; answers the files applied. Call it holding the start-up lock. */
export async function migratePostgres(client) {
  const postgrator = new Postgrator({
    migrationPattern: path.resolve("prisma/postgres/migrations/*"),
    driver: "pg",
    database: client.database,
    schemaTable: "schema_migrations",
    execQuery: (query) => client.query(query),
  });
  const applied = await postgrator.migrate();
  return applied.map((migration) => migration.filename.split(path.sep).pop());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const applied = await withStartupLock(url, migratePostgres);
  console.log(applied.length === 0 ? "PostgreSQL schema is up to date." : `Applied ${applied.join(", ")}.`);
}
