// The shop as production runs it (`node server/prepare.mjs`, then
// `node server.mjs` with NODE_ENV=production), on 127.0.0.1 and a database of
// the bench's own, plus what /proc says about its process: resident memory
// and CPU time.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { startEmbeddedPostgres } from "../../server/embedded-postgres.mjs";
import { databaseUrl, withClient } from "../scratch-postgres.mjs";

/**
 * @typedef {NodeJS.ProcessEnv & { PUBLIC_URL: string }} ShopEnv a production instance's environment
 * @typedef {{ variables: Record<string, string>, flags: string[] }} StartCommand
 *   the environment variables and node flags the server starts with
 * @typedef {Awaited<ReturnType<typeof startServer>>} RunningShop
 */

const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/**
 * A database `name` on the bench's own embedded PostgreSQL (var/bench-postgres,
 * durable as production's: fsync on), as the shop's default is; emptied first
 * when `fresh`. `release()` lets go of the server.
 *
 * @param {string} name
 * @param {{ fresh?: boolean }} [options]
 */
export async function benchDatabase(name, { fresh = false } = {}) {
  const server = await startEmbeddedPostgres({ dir: "var/bench-postgres", log: () => undefined });
  await withClient(server.adminUrl, async (client) => {
    if (fresh) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  });
  return { url: databaseUrl(server.adminUrl, name), release: server.release };
}

/**
 * The environment of a production instance; Stripe is configured but never called by the pages measured.
 * @param {{ port: number, databaseUrl: string }} options
 */
export function productionEnv({ port, databaseUrl }) {
  return {
    ...process.env,
    NODE_ENV: "production",
    DEMO: "false",
    MOCKS: "false",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: "bench-session-secret-0123456789abcdef",
    STRIPE_SECRET_KEY: "sk_test_bench_never_called",
    STRIPE_WEBHOOK_SECRET: "whsec_bench_never_called",
    // Required in production; nothing listens there, and the pages measured send no email.
    SMTP_URL: "smtp://127.0.0.1:9",
    GEOCODER_URL: "http://127.0.0.1:9/search",
    SKIP_BUILD: "true",
  };
}

/**
 * Runs a setup command quietly; its output is shown only when it fails.
 * @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} env
 */
export function quietly(command, args, env) {
  try {
    execFileSync(command, args, { env, stdio: "pipe" });
  } catch (error) {
    // execFileSync's error carries the command's output.
    if (error instanceof Error && "stdout" in error && "stderr" in error) process.stderr.write(`${error.stdout ?? ""}${error.stderr ?? ""}`);
    throw new Error(`${[command, ...args].join(" ")} failed`);
  }
}

/**
 * Migrations and the catalogue seed (and the build, unless SKIP_BUILD), as `npm start` does before it serves.
 * @param {NodeJS.ProcessEnv} env
 */
export const prepareDatabase = (env) => quietly(process.execPath, ["server/prepare.mjs"], env);

/**
 * The environment variables and node flags `npm start` (package.json) runs the
 * server with (`--heap-growing-percent=50` since decision 077; e.g.
 * `MALLOC_ARENA_MAX=2 node --max-semi-space-size=1 server.mjs` before decision 058), so memory is
 * measured as production runs.
 *
 * @returns {StartCommand}
 */
export function startCommand() {
  /** @type {{ scripts: { start: string } }} */
  const packageJson = JSON.parse(readFileSync("package.json", "utf8"));
  const start = packageJson.scripts.start;
  const match = /((?:\w+=\S+ )*)node ((?:--[\w-]+(?:=\S+)? )*)server\.mjs/.exec(start);
  if (!match) throw new Error(`package.json's start script does not run "node … server.mjs": ${start}`);
  /** @param {string | undefined} text */
  const words = (text = "") => text.trim().split(" ").filter(Boolean);
  /**
   * `NAME=value` as [name, value]; the value may hold "=" itself.
   * @param {string} word @returns {[string, string]}
   */
  const variable = (word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)];
  return {
    variables: Object.fromEntries(words(match[1]).map(variable)),
    flags: words(match[2]),
  };
}

/**
 * Starts `server.mjs` with `command`'s environment variables and node flags
 * (by default `npm start`'s) and resolves once /healthz answers, with the
 * time that took.
 *
 * @param {ShopEnv} env
 * @param {StartCommand} [command]
 */
export async function startServer(env, command = startCommand()) {
  const origin = env.PUBLIC_URL;
  if (
    await fetch(`${origin}/healthz`).then(
      () => true,
      () => false,
    )
  ) {
    throw new Error(`${origin} already answers: set BENCH_PORT to a free port`);
  }
  const { variables, flags } = command;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...flags, "server.mjs"], { env: { ...env, ...variables }, stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const killOnExit = () => child.kill();
  process.once("exit", killOnExit);
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    if (
      await fetch(`${origin}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (attempt > 1_500) throw new Error("the server did not start within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // It answered, so it was spawned.
  const { pid } = child;
  if (pid === undefined) throw new Error("the server has no pid");
  return {
    origin,
    pid,
    /** From the spawn to the first /healthz that answered (to within 20 ms). */
    startMs: performance.now() - spawnedAt,
    async stop() {
      process.removeListener("exit", killOnExit);
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * A visitor's cart cookie (`name=value`), made as a visitor makes it: two of a product added.
 * @param {string} origin
 */
export async function cartCookie(origin) {
  const added = await fetch(`${origin}/cart`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, accept: "application/json" },
    body: "intent=add&productId=bites-variety&quantity=2",
  });
  const cookie = added.headers
    .getSetCookie()
    .find((line) => line.startsWith("chillpb_cart="))
    ?.split(";")[0];
  if (!cookie) throw new Error(`adding to the cart gave no cart cookie (${added.status})`);
  return cookie;
}

/**
 * `count` visitors' cart cookies, each a different cart (one to three lines,
 * quantities from 1 to 12), made as visitors make them: a page filled with a
 * cart is measured over many carts, not one whose figures repeat.
 *
 * @param {string} origin @param {number} count
 */
export async function cartCookies(origin, count) {
  const products = ["bar-chocolate-pb", "bar-strawberry-pb", "bar-banana-pb", "bites-variety", "bites-strawberry", "bites-banana"];
  /** @type {string[]} */
  const cookies = [];
  for (let visitor = 0; visitor < count; visitor++) {
    let cookie = "";
    for (let line = 0; line <= visitor % 3; line++) {
      const productId = products[(visitor + line * 2) % products.length];
      const quantity = ((visitor * 7 + line * 5) % 12) + 1;
      const added = await fetch(`${origin}/cart`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin, accept: "application/json", ...(cookie ? { cookie } : {}) },
        body: `intent=add&productId=${productId}&quantity=${quantity}`,
      });
      cookie =
        added.headers
          .getSetCookie()
          .find((header) => header.startsWith("chillpb_cart="))
          ?.split(";")[0] ?? cookie;
    }
    if (!cookie) throw new Error("adding to the cart gave no cart cookie");
    cookies.push(cookie);
  }
  return cookies;
}

/** @param {number} pid */
function status(pid) {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  /** @param {string} name */
  const kilobytes = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
  return { rssBytes: kilobytes("VmRSS") * 1024, peakRssBytes: kilobytes("VmHWM") * 1024 };
}

/** The process's resident set size now, in bytes. @param {number} pid */
export const rssBytes = (pid) => status(pid).rssBytes;

/** The process's highest resident set size since it started or since `resetPeakRss`, in bytes. @param {number} pid */
export const peakRssBytes = (pid) => status(pid).peakRssBytes;

/**
 * Resets the process's RSS high-water mark to its current RSS (Linux: "5" to
 * clear_refs), so that `peakRssBytes` afterwards is the peak since now.
 * Returns false where the kernel refuses; callers then rely on sampling.
 * @param {number} pid
 */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * Watches a process's RSS from now on: the highest value seen by sampling
 * every 50 ms, and the kernel's high-water mark since `resetPeakRss`.
 * @param {number} pid
 */
export function watchPeakRss(pid) {
  const exact = resetPeakRss(pid);
  let sampled = rssBytes(pid);
  const timer = setInterval(() => {
    sampled = Math.max(sampled, rssBytes(pid));
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      const now = status(pid);
      return Math.max(sampled, now.rssBytes, exact ? now.peakRssBytes : 0);
    },
  };
}

/**
 * The bench's PostgreSQL server's CPU time so far, in ms: the postmaster's own
 * and its finished children's (counted into it once they exit), and each
 * running child's (the connections' backends, the writer, the WAL writer).
 */
export function databaseCpuMs() {
  const postmaster = Number(readFileSync("var/bench-postgres/data/postmaster.pid", "utf8").split("\n")[0]);
  /** @param {string} pid */
  const fields = (pid) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const own = fields(String(postmaster));
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const child = fields(pid);
      if (Number(child[1]) === postmaster) ticks += Number(child[11]) + Number(child[12]);
    } catch {
      // The process ended while the list was read: its time is in the postmaster's children's now.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** User + system CPU time the process has used so far, in milliseconds. @param {number} pid */
export function cpuMs(pid) {
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ");
  if (!fields) throw new Error(`/proc/${pid}/stat has no command name in parentheses`);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
