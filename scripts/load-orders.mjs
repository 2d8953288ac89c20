// A load run of whole purchases (docs/architecture.md §8): 1,000 orders from 20
// concurrent clients, each placed with simple-checkout and paid on the
// payment stand-in, spread over the instances; then the database and the
// mail server are checked: orders stored = orders acknowledged, and every
// paid order got exactly one confirmation and one kitchen email; and /metrics
// (summed over the instances) counts the same orders, payments and emails.
//
//   node scripts/load-orders.mjs                        the embedded PostgreSQL (var/bench-postgres, durable), one instance
//   TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/postgres node scripts/load-orders.mjs --database server --instances 2
//   node scripts/load-orders.mjs --orders 300 --profile   also a CPU profile of each instance (var/profiles/), summarised:
//                                                          where the order path's milliseconds go (scripts/profile-summary.mjs)
//
// It prints the servers' CPU time per order: placing it, paying it, and sending its two emails.
//
// Needs a built shop (npm run build). Everything stays on 127.0.0.1.
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { mkdirSync, readdirSync } from "node:fs";
import { benchDatabase, cpuMs } from "./bench/server.mjs";
import { summariseProfile } from "./profile-summary.mjs";
import { createScratchDatabase } from "./scratch-postgres.mjs";

const { values } = parseArgs({
  options: {
    database: { type: "string", default: "embedded" },
    instances: { type: "string", default: "1" },
    orders: { type: "string", default: "1000" },
    clients: { type: "string", default: "20" },
    profile: { type: "boolean", default: false },
  },
});
const ORDERS = Number(values.orders);
const CLIENTS = Number(values.clients);
const PORTS = Array.from({ length: Number(values.instances) }, (_, index) => 3601 + index);
const [FIRST_PORT] = PORTS;
if (FIRST_PORT === undefined) throw new Error("--instances must be 1 or more");
const FULFILMENT = "kitchen@load.test";

// --- The database ------------------------------------------------------------
/** @type {string} */
let databaseUrl;
/** @type {() => Promise<unknown>} */
let dropDatabase;
if (values.database === "server") {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl) throw new Error("--database server needs TEST_POSTGRES_URL (a PostgreSQL server where the run may create a database)");
  const database = await createScratchDatabase(adminUrl, "chillpb_load");
  databaseUrl = database.url;
  dropDatabase = database.drop;
} else {
  // The shop's default: the embedded PostgreSQL, durable as production's.
  const database = await benchDatabase("chillpb_load", { fresh: true });
  databaseUrl = database.url;
  dropDatabase = database.release;
}

/**
 * The rows `sql` answers, on a connection of its own.
 * @param {string} sql @param {unknown[]} [params]
 * @returns {Promise<Record<string, unknown>[]>}
 */
async function query(sql, params = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

// --- A mail server that only counts ------------------------------------------
/** Every email the mail server took: its recipients and subject. @type {{ to: string[], subject: string }[]} */
const received = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  disableReverseLookup: true,
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (chunk) => (raw += chunk.toString()));
    stream.on("end", () => {
      const subject = /^Subject: (.*)$/im.exec(raw)?.[1] ?? "";
      received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), subject });
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(0, "127.0.0.1", () => resolve(undefined)));
const smtpAddress = smtp.server.address();
if (smtpAddress === null || typeof smtpAddress === "string") throw new Error("the mail server does not listen on a TCP port");
const smtpPort = smtpAddress.port;

// --- The shop ----------------------------------------------------------------
/** @param {number} port */
const origin = (port) => `http://127.0.0.1:${port}`;
// The demo (NODE_ENV unset): the stand-ins take the payments; the same production build runs.
const { NODE_ENV: _nodeEnv, ...inherited } = process.env;
/** @param {number} port */
const environment = (port) => ({
  ...inherited,
  PORT: String(port),
  DATABASE_URL: databaseUrl,
  PUBLIC_URL: origin(port),
  TRUST_PROXY: "1",
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  FULFILMENT_EMAIL: FULFILMENT,
  OUTBOX_POLL_MS: "200",
  SKIP_BUILD: "true",
});

const prepared = spawnSync(process.execPath, ["server/prepare.mjs"], { env: environment(FIRST_PORT), encoding: "utf8" });
if (prepared.status !== 0) throw new Error(`prepare failed:\n${prepared.stderr}`);
for (const port of PORTS) {
  // Another shop still answering there would take this run's orders into its own database.
  if (
    await fetch(`${origin(port)}/healthz`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is already in use`);
}
const PROFILE_DIR = `var/profiles/load-orders-${new Date().toISOString().replace(/[:.]/g, "-")}`;
if (values.profile) mkdirSync(PROFILE_DIR, { recursive: true });
const nodeFlags = values.profile ? ["--cpu-prof", "--cpu-prof-dir", PROFILE_DIR] : [];
const spawnedAt = performance.now();
const servers = PORTS.map((port) => spawn(process.execPath, [...nodeFlags, "server.mjs"], { env: environment(port), stdio: "ignore" }));
for (const port of PORTS) {
  for (let tries = 0; ; tries++) {
    if (
      await fetch(`${origin(port)}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (tries > 150) throw new Error(`instance ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// --- The run -----------------------------------------------------------------
let next = 0;
/** @type {number[]} */
const placeMs = [];
/** @type {number[]} */
const payMs = [];
/** The orders simple-checkout placed: their ids. @type {string[]} */
const acknowledged = [];
let failures = 0;

/** @param {number} clientIndex */
async function client(clientIndex) {
  while (next < ORDERS) {
    const index = next++;
    const port = PORTS[index % PORTS.length];
    if (port === undefined) throw new Error("no instance to send the order to");
    const base = origin(port);
    const address = `10.9.${Math.floor(index / 250)}.${index % 250}`;
    const email = `load-${index}-${randomUUID().slice(0, 6)}@example.com`;
    const body = {
      items: [{ product: { id: index % 2 ? "bites-variety" : "bar-chocolate-pb" }, quantity: 4 }],
      email,
      shipping: {
        firstName: "Load",
        lastName: `Client${clientIndex}`,
        email,
        phone: "",
        address: "11600 Wilshire Blvd",
        city: "Los Angeles",
        state: "CA",
        zipCode: "90025",
      },
    };
    const headers = { Origin: base, "X-Forwarded-For": address };
    let started = performance.now();
    const placed = await fetch(`${base}/functions/v1/simple-checkout`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    placeMs.push(performance.now() - started);
    if (placed?.status !== 200) {
      failures++;
      continue;
    }
    /** @type {{ orderId: string, url: string }} simple-checkout's answer to an order it placed */
    const { orderId, url } = await placed.json();
    acknowledged.push(orderId);
    started = performance.now();
    const paid = await fetch(`${base}/mock-stripe/pay/${url.split("/").pop()}`, {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: "card=4242424242424242",
    }).catch(() => null);
    payMs.push(performance.now() - started);
    if (paid?.status !== 302) failures++;
  }
}

// The profiles' first milliseconds are the servers' start-up, not the order path.
const startUpMs = performance.now() - spawnedAt;
/** @param {import("node:child_process").ChildProcess} server */
const pidOf = (server) => {
  if (server.pid === undefined) throw new Error("an instance has no pid: it was not spawned");
  return server.pid;
};
const serversCpu = () => servers.reduce((total, server) => total + cpuMs(pidOf(server)), 0);
const cpuBefore = serversCpu();
const runStarted = performance.now();
await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
const seconds = (performance.now() - runStarted) / 1000;
const cpuPlacing = serversCpu() - cpuBefore;

// Every paid order's two emails, once the workers have caught up.
// This run's orders only: the demo's seed adds paid sample orders of its own, which send no email.
const paidRows = await query(`SELECT id FROM "Order" WHERE "paymentStatus" = 'paid' AND email LIKE 'load-%'`);
const mailStarted = performance.now();
// One worker per instance sends one email at a time (about 13 a second to a
// local server), so 2,000 emails take two to three minutes on one instance.
const deadline = Date.now() + 600_000;
while (received.length < paidRows.length * 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
const mailSeconds = (performance.now() - mailStarted) / 1000;
const cpuWithEmails = serversCpu() - cpuBefore;
const outbox = await query(`SELECT status, count(*) AS count FROM "OutboxMessage" GROUP BY status`);
await new Promise((resolve) => setTimeout(resolve, 2000));

const stored = await query(`SELECT count(*) AS count FROM "Order" WHERE email LIKE 'load-%'`);
const perOrder = new Map();
for (const email of received) {
  const short = /order ([0-9a-f]{8})/.exec(email.subject)?.[1];
  if (!short) continue;
  const counts = perOrder.get(short) ?? { confirmation: 0, kitchen: 0 };
  if (email.to.includes(FULFILMENT)) counts.kitchen++;
  else counts.confirmation++;
  perOrder.set(short, counts);
}
const exactlyOnce = paidRows.filter(({ id }) => {
  const counts = perOrder.get(String(id).slice(0, 8));
  return counts?.confirmation === 1 && counts?.kitchen === 1;
}).length;

/** @param {number[]} samples @param {number} p */
const percentile = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
/** @param {number} value */
const ms = (value) => `${value.toFixed(0)} ms`;

console.log(`${values.database}, ${PORTS.length} instance(s), ${ORDERS} orders from ${CLIENTS} clients in ${seconds.toFixed(1)} s`);
console.log(`  place order: p50 ${ms(percentile(placeMs, 50))}, p99 ${ms(percentile(placeMs, 99))}`);
console.log(`  pay:         p50 ${ms(percentile(payMs, 50))}, p99 ${ms(percentile(payMs, 99))}`);
console.log(
  `  server CPU per order: ${(cpuPlacing / acknowledged.length).toFixed(1)} ms placing and paying it (budget 10 ms), ${(cpuWithEmails / acknowledged.length).toFixed(1)} ms with its two emails sent`,
);
console.log(`  acknowledged ${acknowledged.length}, stored ${Number(stored[0]?.count)}, failed requests ${failures}`);
console.log(`  paid ${paidRows.length}; with exactly one confirmation and one kitchen email: ${exactlyOnce}; emails received ${received.length}`);
console.log(`  the outbox caught up ${mailSeconds.toFixed(1)} s after the last order: ${outbox.map((row) => `${row.status} ${row.count}`).join(", ")}`);

// What each instance's /metrics says (decision 049), summed: it must match the database.
const scraped = await Promise.all(PORTS.map((port) => fetch(`${origin(port)}/metrics`).then((response) => response.text())));
/** A counter's value summed over its series and the instances. @param {string} name */
const counter = (name) =>
  scraped.reduce(
    (sum, text) =>
      sum +
      text
        .split("\n")
        .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
        .reduce((total, line) => total + Number(line.split(" ").pop()), 0),
    0,
  );
const metrics = { placed: counter("shop_orders_placed_total"), paid: counter("shop_orders_paid_total"), emailsSent: counter("shop_emails_sent_total") };
console.log(`  /metrics summed over the instances: orders placed ${metrics.placed}, paid ${metrics.paid}, emails sent ${metrics.emailsSent}`);
const emailsSentRows = await query(`SELECT count(*) AS count FROM "OutboxMessage" WHERE status = 'sent'`);
const metricsMatch = metrics.placed === Number(stored[0]?.count) && metrics.paid === paidRows.length && metrics.emailsSent === Number(emailsSentRows[0]?.count);
console.log(
  `  the counters ${metricsMatch ? "match" : "do NOT match"} the database (orders ${Number(stored[0]?.count)}, paid ${paidRows.length}, emails sent ${Number(emailsSentRows[0]?.count)})`,
);

// SIGTERM: each instance shuts down cleanly, and with --profile writes its profile as it exits.
await Promise.all(servers.map((server) => new Promise((resolve) => (server.once("exit", resolve), server.kill("SIGTERM")))));
if (values.profile) {
  for (const file of readdirSync(PROFILE_DIR).filter((name) => name.endsWith(".cpuprofile"))) {
    console.log(`\nWhere ${PROFILE_DIR}/${file}'s CPU time went under the load (placing, paying, sending the emails):`);
    console.log(summariseProfile(`${PROFILE_DIR}/${file}`, { skipMs: startUpMs }));
  }
}
await new Promise((resolve) => smtp.close(() => resolve(undefined)));
await dropDatabase();

const ok =
  Number(stored[0]?.count) === acknowledged.length &&
  exactlyOnce === paidRows.length &&
  paidRows.length === acknowledged.length &&
  failures === 0 &&
  metricsMatch;
console.log(ok ? "OK" : "MISMATCH");
process.exit(ok ? 0 : 1);
