// The operator's figures: the shop on 100,000 (or 1,000,000) paid orders,
// signed in as an operator: get-orders and get-dashboard one call at a time,
// the memory a dashboard call takes, and /shop while the operator works. A
// database filled by this run is measured first as a bulk import leaves it
// (before VACUUM; the shop's start-up ANALYZE has run), then after VACUUM ANALYZE.
import { setTimeout as sleep } from "node:timers/promises";
import { answeredAll, background, hammer, median, medianOfRounds, sample } from "./load.mjs";
import { ensureOrders, ensureOwnerLists, vacuumAnalyze } from "./orders-db.mjs";
import { MB, calls, count, ms, throughputText } from "./report.mjs";
import { benchDatabase, peakRssBytes, prepareDatabase, productionEnv, quietly, resetPeakRss, rssBytes, startServer, watchPeakRss } from "./server.mjs";

/**
 * @typedef {{ shop: import("./load.mjs").Throughput, operator?: { calls: number, p95Ms: number, failures: number } }} MixedRound
 *   a round of /shop's load, alone or beside an operator's calls
 * @typedef {"alone" | "lists" | "dashboard"} MixedName
 * @typedef {{ orders: { id: string, created_at: string }[] }} OrdersPage the part of get-orders' answer read here
 */

const SETTLE_MS = 5_000;
const OPERATOR = { email: "bench-operator@chillpb.example", password: "bench-operator-passphrase" };

/** "100k", "1M": how the figures name a size. @param {number} orders */
const sizeName = (orders) => (orders >= 1_000_000 ? `${orders / 1_000_000}M` : `${orders / 1_000}k`);

/**
 * `paidOrders`: 100,000 (the default, with the mixed and memory figures) or
 * 1,000,000 (the list and dashboard figures only). `freshDb`: make the orders
 * again even when the database holds them (and measure right after that import).
 *
 * @param {{
 *   figure: import("./report.mjs").RecordFigure,
 *   step: import("./report.mjs").Step,
 *   port: number,
 *   rounds: number,
 *   roundSeconds: number,
 *   samples: number,
 *   freshDb: boolean,
 *   paidOrders?: number,
 * }} options
 */
export async function benchOperator({ figure, step, port, rounds, roundSeconds, samples, freshDb, paidOrders = 100_000 }) {
  const size = sizeName(paidOrders);
  const ordersDb = `chillpb_bench_orders_${size.toLowerCase()}`;
  /** @param {string} key */
  const keyOf = (key) => (paidOrders === 100_000 ? key : `${key}:${size}`);
  const ordersPort = port + 1;
  const database = await benchDatabase(ordersDb, { fresh: freshDb });
  const ordersEnv = productionEnv({ port: ordersPort, databaseUrl: database.url });
  step(`migrating the database ${ordersDb}`);
  prepareDatabase(ordersEnv);
  const filled = await ensureOrders(database.url, paidOrders, { vacuum: false });
  step(filled.filled ? `wrote ${count(paidOrders)} paid orders in ${filled.seconds.toFixed(1)} s` : `reused its ${count(paidOrders)} paid orders`);
  const LIST_ROWS = 100_000;
  if (await ensureOwnerLists(database.url, LIST_ROWS)) step(`wrote ${count(LIST_ROWS)} subscribers and ${count(LIST_ROWS)} inquiries`);
  quietly("node_modules/.bin/tsx", ["scripts/admin-create.ts", "--email", OPERATOR.email, "--password", OPERATOR.password, "--role", "owner"], ordersEnv);
  // The shop's start-up (its migrations, then ANALYZE) runs as a release would after the import.
  const orders = await startServer(ordersEnv);
  step(`the shop on ${count(paidOrders)} orders runs at ${orders.origin} (pid ${orders.pid})`);
  await sleep(2_000);
  const idleBytes = rssBytes(orders.pid);

  const signIn = await fetch(`${orders.origin}/auth/login`, {
    method: "POST",
    headers: { Origin: orders.origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(OPERATOR),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  if (!signIn.ok || !cookie) throw new Error(`the operator could not sign in: ${signIn.status} ${await signIn.text()}`);
  /** @param {string} name @param {Record<string, unknown>} [body] */
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
  /** @type {OrdersPage} */
  const firstPage = await (await call("get-orders", { page: 1 })).json();
  /** @type {OrdersPage} */
  const oldestPage = await (await call("get-orders", { sort: "date_asc", pageSize: 1 })).json();
  const [newestOrder] = firstPage.orders;
  const [oldestOrder] = oldestPage.orders;
  if (!newestOrder || !oldestOrder) throw new Error("get-orders listed no orders");
  const idPrefix = newestOrder.id.slice(0, 4);
  const oldest = oldestOrder.created_at;
  /** @type {[string, Record<string, unknown>][]} */
  const LIST_QUERIES = [
    ["page 1", { page: 1 }],
    ["the deepest page (500: 10,000 orders deep)", { page: 500 }],
    ["the oldest orders (from a date)", { from: oldest }],
    ["a date in the middle, status delivered", { from: new Date((Date.parse(oldest) + Date.now()) / 2).toISOString(), status: "delivered" }],
    ["status filter (delivered: most orders)", { status: "delivered" }],
    ["email-domain search (gmail.com: 38%)", { q: "gmail.com" }],
    ["status filter (preparing)", { status: "preparing" }],
    ["email-domain search (ucla.edu)", { q: "ucla.edu" }],
    [`id-prefix search (${idPrefix})`, { q: idPrefix }],
    ["name search (mar: Martinez, Mateo, …)", { q: "mar" }],
    ["name search, two words (olivia martinez)", { q: "olivia martinez" }],
    ["whole-email search (another spelling of a mailbox)", { q: "Olivia.Martinez1+x@GoogleMail.com" }],
    ["sort by total", { sort: "total_desc" }],
  ];
  /**
   * Every list query and the dashboard, one call at a time; `when` names the state of the database.
   * @param {string} when @param {{ count: number, warmup: number }} options
   */
  const measureLists = async (when, { count: callsEach, warmup }) => {
    for (const [name, body] of LIST_QUERIES) {
      const latency = await sample(() => call("get-orders", body), { count: callsEach, maxSeconds: 15, warmup });
      figure(
        keyOf(`getOrders:${when}${name}`),
        `get-orders, ${size} orders${when ? `, ${when}` : ""}: ${name}`,
        `p95 ${ms(latency.p95Ms)} · p50 ${ms(latency.p50Ms)} (${calls(latency.samples)})`,
        "p95 ≤ 50 ms",
        latency.p95Ms <= 50,
        { body, ...latency },
      );
    }
    const dashboard = await sample(() => call("get-dashboard"), { warmup: Math.min(warmup, 1), count: Math.round(callsEach / 2), maxSeconds: 20 });
    figure(
      keyOf(`getDashboard${when ? `:${when}` : ""}`),
      `get-dashboard, ${size} orders${when ? `, ${when}` : ""}`,
      `p95 ${ms(dashboard.p95Ms)} · p50 ${ms(dashboard.p50Ms)} (${calls(dashboard.samples)})`,
      "p95 ≤ 50 ms",
      dashboard.p95Ms <= 50,
      dashboard,
    );
  };
  if (filled.filled) {
    // As a bulk import leaves the tables: no visibility map yet (index-only scans visit the rows), before autovacuum.
    step("get-orders and get-dashboard right after the bulk import");
    await measureLists("right after a bulk import", { count: Math.round(samples / 4), warmup: 0 });
    step("VACUUM ANALYZE");
    await vacuumAnalyze(database.url);
  }
  step("get-orders and get-dashboard, one call at a time");
  await measureLists("", { count: samples, warmup: 2 });

  // The owner's other views (issue 38 item 6): the day's work, with and without the customers' details, and the lists' exports whole.
  step("get-preparation and the CSV exports, one call at a time");
  /** @type {[string, string, string, Record<string, unknown>, number][]} */
  const OWNER_VIEWS = [
    ["getPreparation", "get-preparation", `get-preparation, ${size} orders: the 500 oldest to prepare`, {}, 100],
    [
      "getPreparation:details",
      "get-preparation",
      `get-preparation, ${size} orders: with the customers' details (500 looks recorded)`,
      { customerDetails: true },
      100,
    ],
    ["exportSubscribers", "export-subscribers", `export-subscribers: the whole CSV of ${count(LIST_ROWS)} subscribers, read to its end`, {}, 1000],
    ["exportInquiries", "export-inquiries", `export-inquiries: the whole CSV of ${count(LIST_ROWS)} inquiries, read to its end`, {}, 1000],
  ];
  for (const [key, name, label, body, budgetMs] of OWNER_VIEWS) {
    const latency = await sample(() => call(name, body), { count: Math.max(5, Math.round(samples / (budgetMs >= 1000 ? 10 : 4))), maxSeconds: 30, warmup: 1 });
    figure(
      keyOf(key),
      label,
      `p95 ${ms(latency.p95Ms)} · p50 ${ms(latency.p50Ms)} (${calls(latency.samples)})`,
      `p95 ≤ ${budgetMs >= 1000 ? `${budgetMs / 1000} s` : `${budgetMs} ms`}`,
      latency.p95Ms <= budgetMs,
      { body, ...latency },
    );
  }
  if (paidOrders !== 100_000) {
    ordersPeak.stop();
    await orders.stop();
    await database.release();
    return;
  }
  const jump = Math.max(dashboardJump.peakBytes || 0, dashboardJump.afterBytes) - dashboardJump.beforeBytes;
  figure(
    "getDashboard:memory",
    "get-dashboard: RSS rise of the first call",
    `${MB(jump)} (${MB(dashboardJump.beforeBytes)} → peak ${Number.isNaN(dashboardJump.peakBytes) ? "?" : MB(dashboardJump.peakBytes)}, after ${MB(dashboardJump.afterBytes)})`,
    "no jump (≤ 10 MB)",
    jump <= 10_000_000,
    dashboardJump,
  );

  step("/shop while an operator works");
  /** @type {Record<MixedName, MixedRound[]>} */
  const mixed = { alone: [], lists: [], dashboard: [] };
  for (let round = 1; round <= rounds; round++) {
    mixed.alone.push({ shop: await hammer({ url: `${orders.origin}/shop`, connections: 10, seconds: roundSeconds, pid: orders.pid }) });
    /** @type {["lists" | "dashboard", (index: number) => Promise<Response>][]} */
    const operatorWork = [
      ["lists", (index) => call("get-orders", LIST_QUERIES[index % LIST_QUERIES.length]?.[1])],
      ["dashboard", () => call("get-dashboard")],
    ];
    for (const [key, work] of operatorWork) {
      const operator = background(work);
      // No CPU per request here: the server's CPU time includes the operator's calls.
      const shopRun = await hammer({ url: `${orders.origin}/shop`, connections: 10, seconds: roundSeconds });
      mixed[key].push({ shop: shopRun, operator: await operator.stop() });
    }
  }
  const peakBytes = ordersPeak.stop();
  /** @param {MixedRound[]} each */
  const summarised = (each) => ({
    shop: medianOfRounds(each.map((round) => round.shop)),
    operatorCalls: each.reduce((sum, round) => sum + (round.operator?.calls ?? 0), 0),
    operatorP95Ms: median(each.map((round) => round.operator?.p95Ms ?? NaN)),
  });
  /** @type {Record<MixedName, ReturnType<typeof summarised>>} */
  const mixedSummary = { alone: summarised(mixed.alone), lists: summarised(mixed.lists), dashboard: summarised(mixed.dashboard) };
  /** @param {MixedName} key */
  const shopDuring = (key) => {
    const summary = mixedSummary[key];
    const operator = key === "alone" ? "" : ` (operator: ${calls(summary.operatorCalls)}, p95 ${ms(summary.operatorP95Ms)})`;
    return `${throughputText(summary.shop)}${operator}`;
  };
  figure("mixed:alone", `\`/shop\` (10 connections) on the ${size} database, alone`, shopDuring("alone"), "", null, mixedSummary.alone);
  /** @type {["lists" | "dashboard", string][]} */
  const mixedLabels = [
    ["lists", "… while an operator repeats filtered lists"],
    ["dashboard", "… while an operator repeats the dashboard"],
  ];
  for (const [key, label] of mixedLabels) {
    const summary = mixedSummary[key];
    figure(`mixed:${key}`, label, shopDuring(key), "p99 ≤ 50 ms", summary.shop.p99Ms <= 50 && answeredAll(summary.shop), summary);
  }

  step(`letting the server settle for ${SETTLE_MS / 1000} s`);
  await sleep(SETTLE_MS);
  const ordersMemory = { idleBytes, peakBytes, afterBytes: rssBytes(orders.pid) };
  figure(
    "memory:orders",
    `operator server RSS (${size} orders): idle · peak · after`,
    `${MB(ordersMemory.idleBytes)} · ${MB(ordersMemory.peakBytes)} · ${MB(ordersMemory.afterBytes)}`,
    // Reported, not budgeted: memory is judged by its growth over the soak (decision 058).
    "",
    null,
    ordersMemory,
  );
  await orders.stop();
  await database.release();
}
