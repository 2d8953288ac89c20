#!/usr/bin/env node
// `npm run bench`: every figure issue 12 budgets, in one run, beside its
// budget. The built shop runs as production runs it, on 127.0.0.1, twice:
// on a fresh catalogue-only database for the pages, and on a database of
// 100,000 paid orders for the operator's functions. Every load is bounded in
// time and count (about seven minutes on 2 cores). Prints a table, writes
// var/bench/<date>.json, var/bench/latest.json and var/bench/latest.md.
//
//   npm run bench                      the full run
//   npm run bench -- --markdown        also print the markdown table (as in the README)
//   npm run bench -- --quick           1 round of 3 s, 1 Lighthouse run: to try the bench itself
//   options: --rounds N --seconds N --lighthouse-runs N --no-lighthouse --build --fresh-db
//   BENCH_PORT (default 3200): the pages' server; BENCH_PORT+1: the operator's.
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import {
  firstLoadScripts,
  getRaw,
  htmlCompression,
  imageCaching,
  pageFonts,
  pageImages,
  stylesheets,
  wireTotal,
} from "./bench/assets.mjs";
import { background, hammer, median, medianOfRounds, sample } from "./bench/load.mjs";
import { PAID_ORDERS, ensureOrders } from "./bench/orders-db.mjs";
import {
  MB,
  consoleTable,
  count,
  kB,
  machine,
  machineText,
  markdownTable,
  ms,
  percent,
  seconds,
  throughputText,
  writeResults,
} from "./bench/report.mjs";
import {
  peakRssBytes,
  prepareDatabase,
  productionEnv,
  quietly,
  resetPeakRss,
  rssBytes,
  startServer,
  watchPeakRss,
} from "./bench/server.mjs";

const { values: options } = parseArgs({
  options: {
    markdown: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    seconds: { type: "string" },
    "lighthouse-runs": { type: "string" },
    "no-lighthouse": { type: "boolean", default: false },
    build: { type: "boolean", default: false },
    "fresh-db": { type: "boolean", default: false },
  },
});
const ROUNDS = Number(options.rounds ?? (options.quick ? 1 : 3));
const SECONDS = Number(options.seconds ?? (options.quick ? 3 : 8));
const LIGHTHOUSE_RUNS = Number(options["lighthouse-runs"] ?? (options.quick ? 1 : 3));
const SAMPLES = options.quick ? 30 : 100;
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const PAGES_DB = "var/bench.db";
const ORDERS_DB = "var/bench-100k.db";
const SETTLE_MS = 5_000;

const startedAt = new Date();
const date = startedAt.toISOString();
const info = machine();
const figures = [];
const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const step = (text) => {
  const elapsed = Math.round((Date.now() - startedAt.getTime()) / 1000);
  console.log(`${`${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, "0")}`.padStart(5)}  ${text}`);
};

// Interrupted: exit handlers stop the servers and remove the static copy.
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));

/** Records a figure: what the table shows, the budget, whether it is met; `data` goes to the JSON. */
function figure(key, label, value, budget, met, data) {
  figures.push({ key, label, value, budget, met, data });
}

console.log(`Chill PB bench, ${machineText(info, date)}`);
console.log(
  `${ROUNDS} round(s) of ${SECONDS} s per throughput figure (medians), ${LIGHTHOUSE_RUNS} Lighthouse run(s) per page, ${SAMPLES} calls per operator figure\n`,
);

// --- The build -----------------------------------------------------------------
if (options.build) {
  step("npm run build");
  quietly("npm", ["run", "build"], process.env);
}

// --- The pages ------------------------------------------------------------------
for (const suffix of ["", "-wal", "-shm"]) rmSync(`${PAGES_DB}${suffix}`, { force: true });
const pagesEnv = productionEnv({ port: PORT, databaseFile: PAGES_DB });
step(`preparing ${PAGES_DB} (and building if the build is older than the sources)`);
prepareDatabase({ ...pagesEnv, SKIP_BUILD: options.build ? "true" : "false" });
const shop = await startServer(pagesEnv);
step(`the shop runs at ${shop.origin} (pid ${shop.pid})`);
await sleep(2_000);
const pagesMemory = { idleBytes: rssBytes(shop.pid) };

const html = async (path) => {
  const response = await getRaw(shop.origin, path, { accept: "text/html" });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return response.body.toString("utf8");
};
const landingHtml = await html("/");
const shopHtml = await html("/shop");
const adminHtml = await html("/admin");

// What a visitor downloads.
step("first-load scripts, fonts, images, compression");
const FIRST_LOAD_JS_BUDGET = 90_000;
for (const [path, page] of [["/", landingHtml], ["/shop", shopHtml]]) {
  const scripts = await wireTotal(shop.origin, firstLoadScripts(shop.origin, page));
  figure(`firstLoadJs:${path}`, `first-load JS gzip, \`${path}\``, `${kB(scripts.bytes)} (${scripts.files.length} files)`, "≤ 90 kB", scripts.bytes <= FIRST_LOAD_JS_BUDGET, scripts);
}
const fontsByPage = {};
for (const [path, page] of [["/", landingHtml], ["/shop", shopHtml], ["/admin", adminHtml]]) {
  fontsByPage[path] = await pageFonts(shop.origin, page);
}
const heaviestFonts = Math.max(...Object.values(fontsByPage).map((fonts) => fonts.bytes));
figure(
  "fonts",
  "fonts a page loads (`/`, `/shop`, `/admin`)",
  Object.entries(fontsByPage).map(([path, fonts]) => `${path} ${kB(fonts.bytes)}`).join(" · "),
  "≤ 30 kB",
  heaviestFonts <= 30_000,
  fontsByPage,
);
const adminJs = await wireTotal(shop.origin, firstLoadScripts(shop.origin, adminHtml));
const adminCss = await wireTotal(shop.origin, stylesheets(shop.origin, adminHtml));
figure(
  "adminFirstLoad",
  "admin sign-in (`/admin`) first load, gzip",
  `JS ${kB(adminJs.bytes)} (${adminJs.files.length} files) · CSS ${kB(adminCss.bytes)}`,
  "JS ≤ 150 kB",
  adminJs.bytes <= 150_000,
  { js: adminJs, css: adminCss },
);
const images = await imageCaching(shop.origin, pageImages(shop.origin, shopHtml));
const immutableImages = images.filter((image) => image.immutable && image.status === 200).length;
const fingerprinted = images.filter((image) => image.fingerprinted).length;
figure(
  "productImages",
  "`/shop` images: Cache-Control",
  `${immutableImages} of ${images.length} immutable, ${fingerprinted} fingerprinted (${[...new Set(images.map((image) => image.cacheControl))].join("; ")})`,
  "immutable (fingerprinted)",
  images.length > 0 && immutableImages === images.length && fingerprinted === images.length,
  images,
);
for (const path of ["/", "/shop"]) {
  const sizes = await htmlCompression(shop.origin, path);
  const ratio = sizes.servedBytes / sizes.onePieceBytes;
  figure(
    `htmlGzip:${path}`,
    `HTML gzip of \`${path}\`: as served / in one piece`,
    sizes.compressed ? `${kB(sizes.servedBytes)} / ${kB(sizes.onePieceBytes)} (×${ratio.toFixed(2)})` : "not compressed",
    "≈ one piece (≤ ×1.05)",
    sizes.compressed && ratio <= 1.05,
    sizes,
  );
}

// The same /shop HTML as a static file from the same process: the ceiling for the page.
// A copy an interrupted run left behind goes first.
for (const name of readdirSync("public")) if (/^bench-shop-copy-\d+\.html$/.test(name)) rmSync(`public/${name}`);
const STATIC_NAME = `bench-shop-copy-${process.pid}.html`;
const staticFile = `public/${STATIC_NAME}`;
const removeStaticCopy = () => rmSync(staticFile, { force: true });
writeFileSync(staticFile, shopHtml);
process.once("exit", removeStaticCopy);
const targets = {
  ssr: `${shop.origin}/shop`,
  static: `${shop.origin}/${STATIC_NAME}`,
  landing: `${shop.origin}/`,
};
if ((await fetch(targets.static)).status !== 200) throw new Error("the static copy of /shop is not served");

step("warming up");
for (const url of Object.values(targets)) await hammer({ url, connections: 10, seconds: 2 });
const runs = { ssr10: [], static10: [], ssr1: [], static1: [], landing10: [] };
const loadPeak = watchPeakRss(shop.pid);
for (let round = 1; round <= ROUNDS; round++) {
  step(`throughput round ${round} of ${ROUNDS}`);
  // Interleaved, so that a slower minute of a shared machine hits every figure alike.
  runs.ssr10.push(await hammer({ url: targets.ssr, connections: 10, seconds: SECONDS, pid: shop.pid }));
  runs.static10.push(await hammer({ url: targets.static, connections: 10, seconds: SECONDS, pid: shop.pid }));
  runs.ssr1.push(await hammer({ url: targets.ssr, connections: 1, seconds: SECONDS, pid: shop.pid }));
  runs.static1.push(await hammer({ url: targets.static, connections: 1, seconds: SECONDS, pid: shop.pid }));
  runs.landing10.push(await hammer({ url: targets.landing, connections: 10, seconds: SECONDS, pid: shop.pid }));
}
pagesMemory.peakBytes = loadPeak.stop();
removeStaticCopy();
const throughput = Object.fromEntries(Object.entries(runs).map(([key, rounds]) => [key, { ...medianOfRounds(rounds), each: rounds }]));
const share = (ssr, copy) => median(ssr.map((run, index) => run.requestsPerSecond / copy[index].requestsPerSecond));
const shareAt10 = share(runs.ssr10, runs.static10);
const shareAt1 = share(runs.ssr1, runs.static1);
const healthy = (run) => run.requests > 0 && run.failures === 0;

figure("shop:c10", "`/shop` server-rendered, 10 connections", throughputText(throughput.ssr10), "p99 ≤ 50 ms", throughput.ssr10.p99Ms <= 50 && healthy(throughput.ssr10), throughput.ssr10);
figure("static:c10", "`/shop`'s HTML as a static file, 10 connections", throughputText(throughput.static10), "(the limit)", null, throughput.static10);
figure("shop:c1", "`/shop` server-rendered, 1 connection", throughputText(throughput.ssr1), "", null, throughput.ssr1);
figure("static:c1", "`/shop`'s HTML as a static file, 1 connection", throughputText(throughput.static1), "(the limit)", null, throughput.static1);
figure("share:c10", "`/shop` SSR as a share of static, 10 connections", percent(shareAt10), "≥ 30%", shareAt10 >= 0.3, { ratio: shareAt10 });
figure("share:c1", "`/shop` SSR as a share of static, 1 connection", percent(shareAt1), "≥ 30%", shareAt1 >= 0.3, { ratio: shareAt1 });
figure("landing:c10", "`/` landing, 10 connections", throughputText(throughput.landing10), "p99 ≤ 50 ms", throughput.landing10.p99Ms <= 50 && healthy(throughput.landing10), throughput.landing10);

step(`letting the server settle for ${SETTLE_MS / 1000} s`);
await sleep(SETTLE_MS);
pagesMemory.afterBytes = rssBytes(shop.pid);
figure(
  "memory:pages",
  "pages server RSS: idle · peak under load · after load",
  `${MB(pagesMemory.idleBytes)} · ${MB(pagesMemory.peakBytes)} · ${MB(pagesMemory.afterBytes)}`,
  "≤ 200 MB after load",
  pagesMemory.afterBytes <= 200_000_000,
  pagesMemory,
);

if (!options["no-lighthouse"]) {
  step(`Lighthouse (mobile), ${LIGHTHOUSE_RUNS} run(s) per page`);
  const { audit } = await import("./bench/lighthouse.mjs");
  const audits = await audit([`${shop.origin}/admin`, `${shop.origin}/`, `${shop.origin}/shop`], { runs: LIGHTHOUSE_RUNS });
  const text = (result) =>
    `perf ${result.performance} · a11y ${result.accessibility} · LCP ${seconds(result.lcpMs)} · TBT ${ms(result.tbtMs)} · CLS ${result.cls.toFixed(3)}`;
  const admin = audits[`${shop.origin}/admin`];
  figure("lighthouse:/admin", "Lighthouse mobile, admin sign-in `/admin`", text(admin), "perf ≥ 95", admin.performance >= 95, admin);
  for (const path of ["/", "/shop"]) {
    const result = audits[`${shop.origin}${path}`];
    figure(
      `lighthouse:${path}`,
      `Lighthouse mobile, \`${path}\``,
      text(result),
      "perf ≥ 98, a11y 100, LCP ≤ 1.8 s",
      result.performance >= 98 && result.accessibility === 100 && result.lcpMs <= 1800,
      result,
    );
  }
}
await shop.stop();

// --- The operator's functions on 100,000 orders -----------------------------------
const ordersPort = PORT + 1;
const ordersEnv = productionEnv({ port: ordersPort, databaseFile: ORDERS_DB });
if (options["fresh-db"]) for (const suffix of ["", "-wal", "-shm"]) rmSync(`${ORDERS_DB}${suffix}`, { force: true });
step(`${existsSync(ORDERS_DB) ? "migrating" : "making"} ${ORDERS_DB}`);
prepareDatabase(ordersEnv);
const filled = await ensureOrders(ORDERS_DB);
step(filled.filled ? `wrote ${count(PAID_ORDERS)} paid orders in ${filled.seconds.toFixed(1)} s` : `reused its ${count(PAID_ORDERS)} paid orders`);
const OPERATOR = { email: "bench-operator@chillpb.example", password: "bench-operator-passphrase" };
quietly("node_modules/.bin/tsx", ["scripts/admin-create.ts", "--email", OPERATOR.email, "--password", OPERATOR.password], ordersEnv);
const orders = await startServer(ordersEnv);
step(`the shop on 100,000 orders runs at ${orders.origin} (pid ${orders.pid})`);
await sleep(2_000);
const ordersMemory = { idleBytes: rssBytes(orders.pid) };

const signIn = await fetch(`${orders.origin}/auth/login`, {
  method: "POST",
  headers: { Origin: orders.origin, "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(OPERATOR),
});
const cookie = signIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
if (!signIn.ok || !cookie) throw new Error(`the operator could not sign in: ${signIn.status} ${await signIn.text()}`);
const call = (name, body = {}) =>
  fetch(`${orders.origin}/functions/v1/${name}`, {
    method: "POST",
    headers: { Origin: orders.origin, Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

// One dashboard call on a server that has not made one yet: how much memory it takes.
const rssBeforeDashboard = rssBytes(orders.pid);
const exactPeak = resetPeakRss(orders.pid);
const firstDashboard = await call("get-dashboard");
if (!firstDashboard.ok) throw new Error(`get-dashboard answered ${firstDashboard.status}`);
await firstDashboard.arrayBuffer();
const dashboardJump = {
  beforeBytes: rssBeforeDashboard,
  peakBytes: exactPeak ? peakRssBytes(orders.pid) : NaN,
  afterBytes: rssBytes(orders.pid),
};

const ordersPeak = watchPeakRss(orders.pid);
const firstPage = await (await call("get-orders", { page: 1 })).json();
const idPrefix = firstPage.orders[0].id.slice(0, 4);
const LIST_QUERIES = [
  ["page 1", { page: 1 }],
  ["a late page (4,000 of 5,000)", { page: 4000 }],
  ["status filter (preparing)", { status: "preparing" }],
  ["email-domain search (ucla.edu)", { q: "ucla.edu" }],
  [`id-prefix search (${idPrefix})`, { q: idPrefix }],
  ["sort by total", { sort: "total_desc" }],
];
step("get-orders, one call at a time");
for (const [name, body] of LIST_QUERIES) {
  const latency = await sample(() => call("get-orders", body), { count: SAMPLES, maxSeconds: 15 });
  figure(`getOrders:${name}`, `get-orders, 100k orders: ${name}`, `p95 ${ms(latency.p95Ms)} · p50 ${ms(latency.p50Ms)} (${latency.samples} calls)`, "p95 ≤ 50 ms", latency.p95Ms <= 50, { body, ...latency });
}
step("get-dashboard, one call at a time");
const dashboard = await sample(() => call("get-dashboard"), { count: Math.round(SAMPLES / 2), maxSeconds: 20 });
const jump = Math.max(dashboardJump.peakBytes || 0, dashboardJump.afterBytes) - dashboardJump.beforeBytes;
figure("getDashboard", "get-dashboard, 100k orders", `p95 ${ms(dashboard.p95Ms)} · p50 ${ms(dashboard.p50Ms)} (${dashboard.samples} calls)`, "p95 ≤ 100 ms", dashboard.p95Ms <= 100, dashboard);
figure(
  "getDashboard:memory",
  "get-dashboard: RSS rise of the first call",
  `${MB(jump)} (${MB(dashboardJump.beforeBytes)} → peak ${Number.isNaN(dashboardJump.peakBytes) ? "?" : MB(dashboardJump.peakBytes)}, after ${MB(dashboardJump.afterBytes)})`,
  "no jump (≤ 10 MB)",
  jump <= 10_000_000,
  dashboardJump,
);

step("/shop while an operator works");
const mixed = { alone: [], lists: [], dashboard: [] };
for (let round = 1; round <= ROUNDS; round++) {
  mixed.alone.push({ shop: await hammer({ url: `${orders.origin}/shop`, connections: 10, seconds: SECONDS, pid: orders.pid }) });
  for (const [key, work] of [
    ["lists", (index) => call("get-orders", LIST_QUERIES[index % LIST_QUERIES.length][1])],
    ["dashboard", () => call("get-dashboard")],
  ]) {
    const operator = background(work);
    // No CPU per request here: the server's CPU time includes the operator's calls.
    const shopRun = await hammer({ url: `${orders.origin}/shop`, connections: 10, seconds: SECONDS });
    mixed[key].push({ shop: shopRun, operator: await operator.stop() });
  }
}
ordersMemory.peakBytes = ordersPeak.stop();
const mixedSummary = Object.fromEntries(
  Object.entries(mixed).map(([key, rounds]) => [
    key,
    {
      shop: medianOfRounds(rounds.map((round) => round.shop)),
      operatorCalls: rounds.reduce((sum, round) => sum + (round.operator?.calls ?? 0), 0),
      operatorP95Ms: median(rounds.map((round) => round.operator?.p95Ms ?? NaN)),
    },
  ]),
);
const shopDuring = (key) => {
  const summary = mixedSummary[key];
  const operator = key === "alone" ? "" : ` (operator: ${count(summary.operatorCalls)} calls, p95 ${ms(summary.operatorP95Ms)})`;
  return `${throughputText(summary.shop)}${operator}`;
};
figure("mixed:alone", "`/shop` (10 connections) on the 100k database, alone", shopDuring("alone"), "", null, mixedSummary.alone);
for (const [key, label] of [["lists", "… while an operator repeats filtered lists"], ["dashboard", "… while an operator repeats the dashboard"]]) {
  const summary = mixedSummary[key];
  figure(`mixed:${key}`, label, shopDuring(key), "p99 ≤ 50 ms", summary.shop.p99Ms <= 50 && healthy(summary.shop), summary);
}

step(`letting the server settle for ${SETTLE_MS / 1000} s`);
await sleep(SETTLE_MS);
ordersMemory.afterBytes = rssBytes(orders.pid);
figure(
  "memory:orders",
  "operator server RSS (100k orders): idle · peak · after",
  `${MB(ordersMemory.idleBytes)} · ${MB(ordersMemory.peakBytes)} · ${MB(ordersMemory.afterBytes)}`,
  "≤ 200 MB after load",
  ordersMemory.afterBytes <= 200_000_000,
  ordersMemory,
);
await orders.stop();

// --- The report -----------------------------------------------------------------------
const minutes = (Date.now() - startedAt.getTime()) / 60_000;
const loadAtEnd = os.loadavg()[0].toFixed(1);
const settings = `${ROUNDS} round(s) of ${SECONDS} s per throughput figure, medians; Lighthouse ${options["no-lighthouse"] ? "skipped" : `median of ${LIGHTHOUSE_RUNS} run(s)`}; whole run ${minutes.toFixed(1)} min, load average ${loadAtEnd} at the end`;
const markdown = markdownTable(figures, info, date, settings);
const budgets = figures.filter((f) => f.met !== null);
const record = {
  date,
  machine: info,
  settings: { rounds: ROUNDS, seconds: SECONDS, lighthouseRuns: options["no-lighthouse"] ? 0 : LIGHTHOUSE_RUNS, samples: SAMPLES, port: PORT },
  minutes,
  budgetsMet: budgets.filter((f) => f.met).length,
  budgets: budgets.length,
  figures,
};
const written = writeResults("var/bench", date, record, markdown);

console.log(`\n${consoleTable(figures)}\n`);
console.log(`${record.budgetsMet} of ${record.budgets} budgets met; ${settings}.`);
console.log(`Wrote ${written.stamped}, ${written.latest} and ${written.markdown}.`);
if (options.markdown) console.log(`\n${markdown}`);
process.exit(0);
