// The shop's HTTP server: Remix behind Express, so that we control static
// caching, compression, security headers and the client address (see
// docs/decisions/013).
import { statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady } from "@remix-run/node";
import express from "express";
import {
  declaredBodyLimit,
  discardUnreadBodies,
  parseTrustProxy,
  paymentFormOrigins,
  sameOrigin,
  securityHeaders,
} from "./server/http-guards.mjs";
import { compressResponses } from "./server/compression.mjs";
import { fingerprintedImages } from "./server/immutable-assets.mjs";
import { pageCache } from "./server/page-cache.mjs";
import { shutdown } from "./server/shutdown.mjs";

const development = process.env.NODE_ENV === "development";
// `npm start` on a fresh clone is the demo: mocks instead of Stripe, a printed
// demo admin. A real deployment sets NODE_ENV=production and is never a demo.
if (!process.env.NODE_ENV) {
  process.env.DEMO ??= "true";
  process.env.NODE_ENV = "production";
}

const BUILD_PATH = path.resolve("build/index.js");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
/** How long SIGTERM waits for requests and an email in flight before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000);
if (!Number.isInteger(SHUTDOWN_TIMEOUT_MS) || SHUTDOWN_TIMEOUT_MS <= 0) {
  console.error(`Invalid environment:\n  - SHUTDOWN_TIMEOUT_MS: must be a positive number of milliseconds, not ${JSON.stringify(process.env.SHUTDOWN_TIMEOUT_MS)}`);
  process.exit(1);
}

async function importBuild() {
  const url = pathToFileURL(BUILD_PATH);
  // In development each rebuild gets a fresh module instance.
  if (development) url.searchParams.set("t", String(statSync(BUILD_PATH).mtimeMs));
  return import(url.href);
}

let build;
try {
  build = await importBuild();
} catch (error) {
  // The app checks its settings as it loads (app/utils/env.server.ts): say which, without a stack trace.
  if (!(error instanceof Error) || !error.message.startsWith("Invalid environment:")) throw error;
  console.error(error.message);
  process.exit(1);
}

if (development) {
  // `npm run dev`: re-import each new build and tell the Remix dev server it is live.
  const { watch } = await import("node:fs");
  let timer;
  watch(path.dirname(BUILD_PATH), () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      build = await importBuild();
      broadcastDevReady(build);
    }, 100);
  });
}

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", parseTrustProxy(process.env.TRUST_PROXY));
app.use(compressResponses());
// Every response, assets and JSON included; pages get the nonce through the load context.
app.use(
  securityHeaders({
    https: process.env.PUBLIC_URL?.startsWith("https://") ?? false,
    formActionOrigins: paymentFormOrigins(process.env.STRIPE_API_URL),
  }),
);
app.use(discardUnreadBodies);
app.use(declaredBodyLimit);
app.use(sameOrigin({ publicUrl: process.env.PUBLIC_URL }));
// Fingerprinted assets never change; everything else in public/ may.
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use("/fonts", express.static("public/fonts", { immutable: true, maxAge: "1y" }));
app.use("/admin/assets", express.static("admin/dist/assets", { immutable: true, maxAge: "1y" }));
app.use(fingerprintedImages());
app.use(express.static("public", { maxAge: "1h" }));

// Pages that are the same for every visitor without a cart, until the catalogue changes.
if (!development) app.use(pageCache({ catalogVersion: () => build.entry.module.catalogVersion() }));

app.all(
  "*",
  createRequestHandler({
    build: development ? () => build : build,
    mode: build.mode,
    getLoadContext: (req, res) => ({ clientAddress: req.ip ?? "unknown", cspNonce: res.locals.cspNonce }),
  }),
);

const server = app.listen(port, host, () => {
  console.log(`Chill PB is ready at http://localhost:${port}`);
  if (development) broadcastDevReady(build);
});

/**
 * SIGTERM (a supervisor's stop, a rolling restart) or SIGINT: stop accepting
 * connections, answer the requests already accepted, stop the email worker
 * after the send in flight, then exit 0. Whatever is still going on after
 * SHUTDOWN_TIMEOUT_MS is cut off, and the process exits 1 (decision 031).
 */
async function stop(signal) {
  console.log(`${signal}: finishing the requests and the email under way (at most ${SHUTDOWN_TIMEOUT_MS / 1000} s)…`);
  const result = await shutdown(server, {
    timeoutMs: SHUTDOWN_TIMEOUT_MS,
    stopWork: (timeoutMs) => build.entry.module.stopOutboxWorker(timeoutMs),
  });
  if (result.clean) {
    console.log(`Stopped cleanly in ${result.ms} ms.`);
    process.exit(0);
  }
  const cutOff = [
    !result.requestsDone && "the requests still open were cut off",
    !result.workDone && "the email being sent stays claimed until its lease runs out, then another instance sends it",
  ].filter(Boolean);
  console.error(`Stopped after ${SHUTDOWN_TIMEOUT_MS} ms with work still under way: ${cutOff.join("; ")}.`);
  process.exit(1);
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => void stop(signal));
}
