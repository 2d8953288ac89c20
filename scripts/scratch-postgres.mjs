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
