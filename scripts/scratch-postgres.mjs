// PostgreSQL databases made and dropped by scripts and tests (the PostgreSQL
// test pass, the load run, the cluster test): the one place that connects to
// a server for a moment, names a database in a URL, and drops one.
import { randomUUID } from "node:crypto";
import pg from "pg";

/**
 * The URL of database `name` on the server of `serverUrl`.
 * @param {string} serverUrl
 * @param {string} name
 */
export function databaseUrl(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Runs `work` on a connection of its own to `url`, closed afterwards.
 * @template T
 * @param {string} url
 * @param {(client: pg.Client) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Drops database `name`, its open connections included.
 * @param {string} serverUrl
 * @param {string} name
 */
export function dropDatabase(serverUrl, name) {
  return withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * Creates an empty `<prefix>_<random>` on the server of `serverUrl`.
 * @param {string} serverUrl
 * @param {string} prefix
 */
export async function createScratchDatabase(serverUrl, prefix) {
  const name = `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  return { name, url: databaseUrl(serverUrl, name), drop: () => dropDatabase(serverUrl, name) };
}

/**
 * The PostgreSQL server that tests, the bench and the load run create their
 * databases on: TEST_POSTGRES_URL's (a server where they may create
 * databases), or else an embedded server of their own under var/test-postgres,
 * without fsync (its data is thrown away). `release()` lets go of the
 * embedded one: the last process to let go stops it.
 * @returns {Promise<{ adminUrl: string, release: () => Promise<void> }>}
 */
export async function testPostgresServer() {
  if (process.env.TEST_POSTGRES_URL) return { adminUrl: process.env.TEST_POSTGRES_URL, release: async () => undefined };
  const { startEmbeddedPostgres } = await import("../server/embedded-postgres.mjs");
  const server = await startEmbeddedPostgres({ dir: "var/test-postgres", durable: false, log: () => undefined });
  return { adminUrl: server.adminUrl, release: server.release };
}

/**
 * Drops the databases named `<prefix>_…` that a run which was killed left
 * behind (a run drops its own when it ends).
 * @param {string} serverUrl
 * @param {string} prefix
 */
export async function dropLeftovers(serverUrl, prefix) {
  const { rows } = await withClient(serverUrl, (client) => client.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${prefix}\\_%`]));
  for (const { datname } of rows) await dropDatabase(serverUrl, datname);
}
