// The shop's HTTP server: Remix behind Express, so that we control static
// caching, compression, security headers and the client address (decision
// 013). What each request meets is in server/app.mjs; the settings come from
// the app's one environment schema, through the build.
// First: on a Node.js older than 22 the shop stops here with one line.
import "./server/node-version.mjs";
import nodeModule from "node:module";
import { broadcastDevReady } from "@remix-run/node";
import { buildIfStale, migrateAndSeed } from "./server/prepare.mjs";
import { createShopApp } from "./server/app.mjs";
import { importBuild, watchBuild } from "./server/build.mjs";
import { EmbeddedPostgresError, chooseDatabase } from "./server/database.mjs";
import { keepConnectionsForProxies } from "./server/keep-alive.mjs";
import { startMode } from "./server/mode.mjs";
import { shutdown } from "./server/shutdown.mjs";

/**
 * Stops the process with `message` and no stack trace: a start-up problem the operator must fix.
 * @param {string} message
 * @returns {never}
 */
function refuseToStart(message) {
  console.error(message);
  process.exit(1);
}

// `npm start` on a fresh clone is the demo: stand-ins instead of Stripe, a
// printed demo admin. A real deployment sets NODE_ENV=production and is never
// the demo; a production secret without it refuses to start (decision 037).
const mode = startMode(process.env);
if (mode.refusal) refuseToStart(mode.refusal);
if (mode.demo) {
  process.env.DEMO = "true";
  // The demo runs the production build as production does (React's server renderer picks its build by NODE_ENV).
  process.env.NODE_ENV = "production";
}

// The order matters: the build (made if its sources changed) checks the
// settings as it loads, before anything touches a database; only then is the
// embedded PostgreSQL started (unless DATABASE_URL names a server), migrated
// and seeded (decision 035), and only then does background work begin.
if (process.env.SKIP_BUILD !== "true") buildIfStale();
// Stack frames through build/index.js.map, so an error's log line names the shop's own files (decision 080).
// Only files loaded from here on are mapped: the build is imported below.
if (typeof nodeModule.setSourceMapsSupport === "function") nodeModule.setSourceMapsSupport(true);
else process.setSourceMapsEnabled(true);
const database = await chooseDatabase().catch((error) => {
  if (error instanceof EmbeddedPostgresError) refuseToStart(error.message);
  throw error;
});
let build = await importBuild();
const { env, logger } = build.entry.module;

// What nothing in the shop caught (decision 080), from the moment there is a log to say it in. A rejected promise
// nobody awaited is a fault to fix, not a reason to drop every request in flight: logged and reported, and the
// process goes on (Node's default would end it). An exception that reached the top leaves the process in a state
// nobody knows: logged, reported, and the process stops as on SIGTERM (the requests under way answered, the email
// in flight finished), then exits 1 for its supervisor to start it again; before it serves, it exits 1 at once.
/** @type {((reason: "uncaughtException") => Promise<void>) | null} */
let stopServing = null;
process.on("unhandledRejection", (reason) => {
  logger.error({ err: reason }, "a promise was rejected and nothing handled it");
  build.entry.module.reportError(reason, { source: "process" });
});
process.on("uncaughtException", (error, origin) => {
  logger.fatal({ err: error, origin }, "an exception reached the top of the process: stopping cleanly, then exiting 1");
  build.entry.module.reportError(error, { source: "process" });
  if (stopServing) void stopServing("uncaughtException");
  else void build.entry.module.flushErrorReports().finally(() => process.exit(1));
});
const development = env.NODE_ENV === "development";
const opened = await database.open().catch((error) => {
  if (error instanceof EmbeddedPostgresError) refuseToStart(error.message);
  throw error;
});
// A crash still lets go of the embedded database (a SIGKILL cannot: the next start finds it running).
process.once("exit", () => opened.releaseSync());
// The demo, and `npm run dev`, get the demo's accounts and sample orders.
await migrateAndSeed(database.url, { demo: env.DEMO || development });
build.entry.module.startBackgroundWork();

if (development) {
  // `npm run dev`: serve each new build and tell the Remix dev server it is live.
  watchBuild((next) => {
    build = next;
    void broadcastDevReady(build);
  });
}

const app = createShopApp({ build: () => build, development });

const server = app.listen(env.PORT, env.HOST, () => {
  // The address it really listens on (HOST, or its default: decision 045).
  const { address: host, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  const { release, describeRelease } = build.entry.module;
  logger.info({ listening: { host, port }, release }, `Chill PB ${describeRelease(release)} is ready at http://localhost:${port}`);
  if (development) void broadcastDevReady(build);
});
// Idle connections outlive a pooling proxy's (decision 078).
keepConnectionsForProxies(server);

let stopping = false;
/**
 * SIGTERM (a supervisor's stop, a rolling restart) or SIGINT: stop accepting
 * connections, answer the requests already accepted, stop the email worker
 * after the send in flight, let go of the embedded database, then exit 0.
 * Whatever is still going on after SHUTDOWN_TIMEOUT_MS is cut off, and the
 * process exits 1 (decision 031). An exception nothing caught stops the
 * process the same way, then exits 1 (below).
 *
 * @param {NodeJS.Signals | "uncaughtException"} reason
 */
async function stop(reason) {
  if (stopping) return;
  stopping = true;
  const timeoutMs = env.SHUTDOWN_TIMEOUT_MS;
  // /readyz answers 503 from now on, on connections still open (decision 050).
  build.entry.module.markShuttingDown();
  logger.info({ reason }, `${reason}: finishing the requests and the email under way (at most ${timeoutMs / 1000} s)…`);
  const result = await shutdown(server, {
    timeoutMs,
    stopWork: (workTimeoutMs) => build.entry.module.stopBackgroundWork(workTimeoutMs),
  });
  await opened.release();
  await build.entry.module.flushErrorReports();
  const exitCode = reason === "uncaughtException" ? 1 : 0;
  if (result.clean) {
    logger.info({ ms: result.ms }, `Stopped cleanly in ${result.ms} ms.`);
    process.exit(exitCode);
  }
  const cutOff = [
    !result.requestsDone && "the requests still open were cut off",
    !result.workDone && "the email being sent stays claimed until its lease runs out, then another instance sends it",
  ].filter(Boolean);
  logger.error({ ms: result.ms }, `Stopped after ${timeoutMs} ms with work still under way: ${cutOff.join("; ")}.`);
  process.exit(1);
}

stopServing = stop;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.once(signal, () => void stop(signal));
}
