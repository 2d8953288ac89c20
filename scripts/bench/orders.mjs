// The order path (issue 21 item 4): customers placing orders through `simple-checkout` and Stripe
// confirming their payments through the webhook, against the shop as production runs it, with
// Stripe, the geocoder and the mail server stood in on 127.0.0.1 (providers.mjs). Each of `clients`
// customers places an order, waits for its answer, then Stripe's `checkout.session.completed` for it
// is delivered, then the next order: the figures are the CPU the shop spent per placed and paid order
// (its confirmation email included), the latency of each call, and the orders per second.
//
// With `profile`, the same load runs once more under `node --cpu-prof`, and the profile's heaviest
// functions (self time) and where they come from (the shop's code, Prisma, pg, React, Node) are
// reported: where each millisecond goes.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { BROWSER_HEADERS, answeredAll, hammer, percentile } from "./load.mjs";
import { throughputText } from "./report.mjs";
import { signedEvent, startProviders } from "./providers.mjs";
import { benchDatabase, cartCookie, cpuMs, databaseCpuMs, prepareDatabase, productionEnv, startCommand, startServer } from "./server.mjs";

/**
 * @typedef {import("node:inspector").Profiler.Profile} CpuProfile a .cpuprofile's JSON
 * @typedef {{ fromMs: number, toMs: number }} Window ms since the server was spawned
 * @typedef {{ orderId: string, url: string } | { orderId?: undefined }} CheckoutAnswer
 *   simple-checkout's answer: the order placed and its payment page, or a refusal
 * @typedef {Awaited<ReturnType<typeof startProviders>>} Providers
 */

const ORDERS_DB = "chillpb_bench_orders_path";
const WEBHOOK_SECRET = "whsec_bench_order_path";
const PROFILE_DIR = "var/bench/profiles";

const PRODUCTS = ["bar-chocolate-pb", "bar-strawberry-pb", "bar-banana-pb", "bites-variety", "bites-strawberry", "bites-banana"];

/** Customer `n`'s order: one to three lines, at least the shop's $20 minimum, a name and mailbox of its own. @param {number} n */
function orderBody(n) {
  const lines = (n % 3) + 1;
  const items = Array.from({ length: lines }, (_, line) => ({
    product: { id: PRODUCTS[(n + line * 2) % PRODUCTS.length] },
    quantity: 4 + ((n + line) % 3),
  }));
  return JSON.stringify({
    items,
    shipping: {
      firstName: `Bench${n}`,
      lastName: "Customer",
      email: `bench.customer.${n}@example.com`,
      phone: "310-555-0100",
      // A handful of addresses, so the geocoder's cache answers as it does for returning customers.
      address: `${100 + (n % 5)} Ocean Ave`,
      city: "Santa Monica",
      state: "CA",
      zipCode: "90401",
    },
  });
}

/**
 * Stripe's notice that a session was paid, as the webhook receives it.
 * @param {number} n @param {string} sessionId @param {string} orderId @param {number | undefined} amountTotal
 */
function paidEvent(n, sessionId, orderId, amountTotal) {
  return {
    id: `evt_bench_${n}_${sessionId.slice(-8)}`,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        amount_total: amountTotal,
        payment_intent: `pi_bench_${n}`,
        metadata: { orderId },
      },
    },
  };
}

/**
 * `clients` customers at once for `seconds`: each places an order and has it
 * paid, then the next. Returns the latencies (ms) of both calls, the orders
 * placed and paid, and the failures.
 *
 * @param {string} origin
 * @param {{ clients: number, seconds: number, first: number, totals: Map<string, number> }} options
 */
async function customers(origin, { clients, seconds, first, totals }) {
  /** @type {number[]} */
  const place = [];
  /** @type {number[]} */
  const confirm = [];
  let failures = 0;
  let next = first;
  /** The last order placed and paid: its pages are measured after the load. @type {{ sessionId: string, orderId: string } | null} */
  let last = null;
  const deadline = performance.now() + seconds * 1000;
  const headers = { "content-type": "application/json", origin, accept: "application/json" };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const n = next++;
        let started = performance.now();
        const placed = await fetch(`${origin}/functions/v1/simple-checkout`, { method: "POST", headers, body: orderBody(n) }).catch(() => null);
        /** @type {CheckoutAnswer | null} */
        const answer = placed && (await placed.json().catch(() => null));
        place.push(performance.now() - started);
        if (!placed?.ok || !answer?.orderId) {
          failures++;
          if (failures === 1) console.error(`bench: an order was refused (${placed?.status}): ${JSON.stringify(answer).slice(0, 300)}`);
          continue;
        }
        const sessionId = answer.url.split("/").pop() ?? "";
        const event = signedEvent(paidEvent(n, sessionId, answer.orderId, totals.get(sessionId)), WEBHOOK_SECRET);
        started = performance.now();
        const paid = await fetch(`${origin}/webhooks/stripe`, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": event.header },
          body: event.body,
        }).catch(() => null);
        await paid?.arrayBuffer();
        confirm.push(performance.now() - started);
        if (paid?.ok) last = { sessionId, orderId: answer.orderId };
        if (!paid?.ok) {
          failures++;
          if (failures === 1) console.error(`bench: a payment notice was refused (${paid?.status})`);
        }
      }
    }),
  );
  return { place, confirm, failures, orders: confirm.length, next, last };
}

/**
 * Places and pays orders against a fresh production instance: `warmup`
 * seconds not counted, then `seconds` measured. With `cpuProfile`, the server
 * runs under `--cpu-prof` and the profile's path is returned.
 *
 * @param {{ port: number, clients: number, seconds: number, warmup: number, cpuProfile: boolean, pageSeconds?: number }} options
 */
export async function run({ port, clients, seconds, warmup, cpuProfile, pageSeconds = 0 }) {
  const providers = await startProviders();
  const database = await benchDatabase(ORDERS_DB, { fresh: true });
  const env = {
    ...productionEnv({ port, databaseUrl: database.url }),
    ...providers.env,
    STRIPE_SECRET_KEY: "sk_test_bench_order_path",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    // One address stands for many customers here: the per-address limit (10 a minute) would refuse them.
    RATE_LIMIT_PER_MINUTE: "1000000",
  };
  prepareDatabase(env);
  const command = startCommand();
  /** @type {string | null} */
  let profileDir = null;
  if (cpuProfile) {
    profileDir = path.join(PROFILE_DIR, `order-path-${Date.now()}`);
    mkdirSync(profileDir, { recursive: true });
    command.flags = [...command.flags, "--cpu-prof", `--cpu-prof-dir=${profileDir}`];
  }
  const shop = await startServer(env, command);
  const spawnedAt = performance.now() - shop.startMs;
  try {
    // Warm-up: the first orders load the order path's modules and fill the geocoder's cache.
    const warm = await customers(shop.origin, { clients, seconds: warmup, first: 0, totals: providers.totals });
    const cpuBefore = cpuMs(shop.pid);
    const databaseCpuBefore = databaseCpuMs();
    /** @type {Window} */
    const window = { fromMs: performance.now() - spawnedAt, toMs: 0 };
    const measured = await customers(shop.origin, { clients, seconds, first: warm.next, totals: providers.totals });
    // The confirmation emails go out from the outbox shortly after; their work belongs to the orders.
    for (let waited = 0; providers.counts.emails < warm.orders + measured.orders && waited < 10_000; waited += 100) await sleep(100);
    const cpu = cpuMs(shop.pid) - cpuBefore;
    const databaseCpu = databaseCpuMs() - databaseCpuBefore;
    window.toMs = performance.now() - spawnedAt;
    const pages = pageSeconds > 0 ? await personalPages(shop, providers, measured.last, pageSeconds, spawnedAt) : null;
    return { ...measured, cpu, databaseCpu, counts: { ...providers.counts }, profileDir, window, warmOrders: warm.orders, pages };
  } finally {
    await shop.stop();
    await providers.stop();
    await database.release();
  }
}

/** An order page's link in the last confirmation emails the SMTP stand-in took (quoted-printable undone). @param {string[]} messages */
function orderPageLink(messages) {
  for (const message of [...messages].reverse()) {
    const text = message.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const link = /https?:\/\/[^\s"<>]*\/orders\/[0-9a-f-]{36}\?token=[A-Za-z0-9._~%-]+/.exec(text);
    if (link) return new URL(link[0]);
  }
  throw new Error("no confirmation email held an order page's link");
}

/**
 * The pages rendered for one customer (issue 21 item 1), each at 10
 * connections for `seconds`: `/checkout` with a cart, `/order-success` for a
 * paid session, and the order page from the confirmation email's link.
 *
 * @param {import("./server.mjs").RunningShop} shop
 * @param {Providers} providers
 * @param {{ sessionId: string, orderId: string } | null} last
 * @param {number} seconds
 * @param {number} spawnedAt when the server was spawned (performance.now())
 */
async function personalPages(shop, providers, last, seconds, spawnedAt) {
  if (!last) throw new Error("no order was placed and paid: the pages need one");
  const link = orderPageLink(providers.messages);
  const targets = {
    checkout: { url: `${shop.origin}/checkout`, headers: { ...BROWSER_HEADERS, cookie: await cartCookie(shop.origin) } },
    success: { url: `${shop.origin}/order-success?session_id=${last.sessionId}`, headers: BROWSER_HEADERS },
    order: { url: `${shop.origin}${link.pathname}${link.search}`, headers: BROWSER_HEADERS },
  };
  /** @type {Record<string, import("./load.mjs").Throughput & { window: Window }>} */
  const results = {};
  for (const [name, { url, headers }] of Object.entries(targets)) {
    const first = await fetch(url, { headers });
    const body = await first.text();
    if (!first.ok) throw new Error(`${url} answered ${first.status}: ${body.slice(0, 200)}`);
    await hammer({ url, connections: 10, seconds: 2, headers });
    const fromMs = performance.now() - spawnedAt;
    const measured = await hammer({ url, connections: 10, seconds, headers, pid: shop.pid });
    // The measured stretch, in ms since the server was spawned: a profile's samples within it are this page's.
    results[name] = { ...measured, window: { fromMs, toMs: performance.now() - spawnedAt } };
  }
  return results;
}

// --- The profile ----------------------------------------------------------------------------

/**
 * Where a profiled function comes from: a package, the shop's code, Node itself, or the engine.
 * @param {string} url @param {string} functionName
 */
export function originOf(url, functionName) {
  if (!url) {
    if (functionName === "(garbage collector)") return "garbage collection";
    if (functionName === "(program)") return "V8 and native code (program)";
    if (functionName === "(idle)") return "idle";
    return "V8 and native code (program)";
  }
  // The only WebAssembly the shop loads is Prisma's query compiler (query_compiler_bg.wasm).
  if (url.startsWith("wasm://")) return "Prisma (query compiler, WebAssembly)";
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (name) {
    if (name.startsWith("@prisma/") || name === "prisma" || url.includes("/generated/prisma/")) return `Prisma (${name})`;
    return name;
  }
  if (url.includes("/generated/prisma/")) return "Prisma (generated client)";
  if (url.startsWith("node:")) return "Node.js";
  if (url.includes("/build/")) return "the shop (server build)";
  return `the shop (${path.basename(url)})`;
}

/**
 * The profile's self time by function and by origin, idle time left out,
 * as shares of the busy time: the heaviest `top` of each. Only the samples
 * within `window` (ms since the profile started) count: not the start-up,
 * the warm-up or the shutdown.
 *
 * @param {CpuProfile} profile
 * @param {{ top?: number, window?: Window }} [options]
 */
export function summariseProfile(profile, { top = 15, window = { fromMs: 0, toMs: Infinity } } = {}) {
  const { samples, timeDeltas } = profile;
  if (!samples || !timeDeltas) throw new Error("the profile has no samples");
  /** @type {Map<number, number>} */
  const selfTicks = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  let at = 0;
  samples.forEach((id, index) => {
    at += (timeDeltas[index] ?? 0) / 1000;
    if (at >= window.fromMs && at <= window.toMs) selfTicks.set(id, (selfTicks.get(id) ?? 0) + 1);
  });
  /** @type {Map<string, { ticks: number, origin: string }>} */
  const functions = new Map();
  /** @type {Map<string, number>} */
  const origins = new Map();
  let busy = 0;
  for (const [id, ticks] of selfTicks) {
    const node = byId.get(id);
    if (!node) throw new Error(`the profile has a sample of node ${id}, which it does not list`);
    const { callFrame } = node;
    const origin = originOf(callFrame.url, callFrame.functionName);
    if (origin === "idle") continue;
    busy += ticks;
    const where = callFrame.url
      ? `${callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(build|app|server)\//, "$1/")}:${callFrame.lineNumber + 1}`
      : "";
    const key = `${callFrame.functionName || "(anonymous)"} ${where}`.trim();
    functions.set(key, { ticks: (functions.get(key)?.ticks ?? 0) + ticks, origin });
    origins.set(origin, (origins.get(origin) ?? 0) + ticks);
  }
  /** @param {number} ticks */
  const share = (ticks) => ticks / busy;
  return {
    busySamples: busy,
    functions: [...functions]
      .sort((a, b) => b[1].ticks - a[1].ticks)
      .slice(0, top)
      .map(([name, { ticks, origin }]) => ({ name, origin, share: share(ticks) })),
    origins: [...origins]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([origin, ticks]) => ({ origin, share: share(ticks) })),
  };
}

/** @param {string} dir @returns {CpuProfile} */
function readProfile(dir) {
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no .cpuprofile in ${dir}: the server did not write its profile on exit`);
  return JSON.parse(readFileSync(path.join(dir, file), "utf8"));
}

/** @param {number} share */
const pct = (share) => `${(share * 100).toFixed(1)}%`;

/**
 * The bench's rows for the order path; with `profile`, a second run under the profiler.
 * @param {{
 *   figure: import("./report.mjs").RecordFigure,
 *   step: import("./report.mjs").Step,
 *   port: number,
 *   clients?: number,
 *   seconds?: number,
 *   warmup?: number,
 *   profile?: boolean,
 *   pageSeconds?: number,
 * }} options
 */
export async function benchOrders({ figure, step, port, clients = 20, seconds = 20, warmup = 5, profile = true, pageSeconds = 8 }) {
  step(`order path: ${clients} customers placing and paying orders for ${seconds} s (after ${warmup} s of warm-up), Stripe, geocoder and SMTP stood in`);
  const measured = await run({ port, clients, seconds, warmup, cpuProfile: false, pageSeconds });
  const { orders, failures, cpu, databaseCpu } = measured;
  const cpuPerOrder = cpu / Math.max(1, orders);
  const databaseCpuPerOrder = databaseCpu / Math.max(1, orders);
  const placeP99 = percentile(measured.place, 99);
  const confirmP99 = percentile(measured.confirm, 99);
  const perSecond = orders / seconds;
  figure(
    "orders:cpu",
    `order path, ${clients} customers at once on one instance: CPU per order placed (simple-checkout) and paid (Stripe's webhook), its email included: the shop's process + the database's`,
    `${(cpuPerOrder + databaseCpuPerOrder).toFixed(1)} ms per order (shop ${cpuPerOrder.toFixed(1)} + database ${databaseCpuPerOrder.toFixed(1)}) · ${perSecond.toFixed(0)} orders/s (${orders} orders${failures ? `, ${failures} failed` : ""})`,
    "≤ 10 ms CPU per order, database included",
    cpuPerOrder + databaseCpuPerOrder <= 10 && failures === 0,
    { cpuMs: cpu, databaseCpuMs: databaseCpu, orders, failures, seconds, clients, counts: measured.counts },
  );
  figure(
    "orders:place",
    `order path: \`simple-checkout\` latency at ${clients} customers (Stripe stood in on 127.0.0.1)`,
    `p50 ${percentile(measured.place, 50).toFixed(0)} ms · p99 ${placeP99.toFixed(0)} ms`,
    "p99 ≤ 250 ms",
    placeP99 <= 250 && failures === 0,
    { p50Ms: percentile(measured.place, 50), p99Ms: placeP99, samples: measured.place.length },
  );
  figure(
    "orders:confirm",
    `order path: Stripe's \`checkout.session.completed\` webhook latency at ${clients} customers`,
    `p50 ${percentile(measured.confirm, 50).toFixed(0)} ms · p99 ${confirmP99.toFixed(0)} ms`,
    "p99 ≤ 250 ms",
    confirmP99 <= 250 && failures === 0,
    { p50Ms: percentile(measured.confirm, 50), p99Ms: confirmP99, samples: measured.confirm.length },
  );
  const pageLabels = {
    checkout: "`/checkout` rendered for a visitor with a cart",
    success: "`/order-success` rendered for an order the shop knows is paid (one read; Stripe not asked, nothing written)",
    order: "the order page (`/orders/<id>?token=`) rendered from the confirmation email's link",
  };
  for (const [name, label] of Object.entries(pageLabels)) {
    const page = measured.pages?.[name];
    if (!page) continue;
    figure(
      `personal:${name}`,
      `${label}, 10 connections`,
      throughputText(page),
      "≤ 3 ms CPU per request",
      page.cpuMsPerRequest <= 3 && answeredAll(page),
      page,
    );
  }
  if (!profile) return;

  step("order path: the same load under node --cpu-prof");
  const profiled = await run({ port, clients, seconds: Math.min(seconds, 10), warmup, cpuProfile: true });
  if (!profiled.profileDir) throw new Error("the profiled run has no profile folder");
  const summary = summariseProfile(readProfile(profiled.profileDir), { window: profiled.window });
  step(`order path: the profile is in ${profiled.profileDir} (open it in Chrome's DevTools)`);
  figure(
    "orders:profile-origins",
    "order path profile: busy CPU by origin (self time, top 6)",
    summary.origins
      .slice(0, 6)
      .map(({ origin, share }) => `${origin} ${pct(share)}`)
      .join(" · "),
    "",
    null,
    summary,
  );
  figure(
    "orders:profile-functions",
    "order path profile: the heaviest functions (self time, top 8)",
    summary.functions
      .slice(0, 8)
      .map(({ name, share }) => `\`${name}\` ${pct(share)}`)
      .join(" · "),
    "",
    null,
    null,
  );
}
