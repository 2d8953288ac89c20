import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "./fixtures";
import { createPrismaClient } from "../../app/utils/db.server";
import { withClient } from "../../scripts/scratch-postgres.mjs";
import { startSmtpServer, type TestSmtpServer } from "../integration/smtp";
import { scratchDatabase, startShop as startShopProcess, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * The server process itself (server.mjs), on a built shop, a port and a
 * database of its own: what it does when a supervisor stops it with SIGTERM
 * while a request and an email are under way; how it refuses to start without
 * a mail server in production; and how the demo and a real shop never mix
 * (decision 037).
 */

// One port per Playwright worker, beside the main e2e server's; each test starts and stops its own process on it.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 470 + Number(process.env.TEST_WORKER_INDEX ?? 0);
const ORIGIN = `http://127.0.0.1:${PORT}`;
let database: ScratchDatabase;
let db: ReturnType<typeof createPrismaClient>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  database = await scratchDatabase("chillpb_e2e_process");
  db = createPrismaClient(database.url);
});

// A test that fails before its process exits must not leave it running (and holding the port).
const launched = new Set<ShopProcess>();
test.afterEach(async () => {
  for (const shop of launched) await shop.stop("SIGKILL");
  launched.clear();
});

test.afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

/** The environment as the operator gives it: nothing from this test process's own (NODE_ENV among it). */
const clean = (env: Record<string, string | undefined>) => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...env });

/** server.mjs with exactly `env`, on this file's database unless `env` names another; resolves once it serves, or at once. */
async function launch(env: Record<string, string | undefined>, { waitUntilReady = false } = {}) {
  const shop = await startShopProcess(PORT, clean({ DATABASE_URL: database.url, ...env }), { origin: ORIGIN, waitUntilReady });
  launched.add(shop);
  return shop;
}

/** The demo (NODE_ENV unset: the stand-ins, no real money), sending its email to `smtp`. */
function startShop(smtp: TestSmtpServer, env: Record<string, string> = {}) {
  return launch({ PUBLIC_URL: ORIGIN, SMTP_URL: smtp.url, OUTBOX_POLL_MS: "100", ...env }, { waitUntilReady: true });
}

/** What the process logged, one message a line. */
const messages = (shop: ShopProcess) =>
  shop
    .logLines()
    .map((line) => String(line.msg))
    .join("\n");

/** A real shop's settings (Stripe is configured but never called here). */
const production = {
  NODE_ENV: "production",
  SESSION_SECRET: "server-process-test-secret-0123456789",
  PUBLIC_URL: ORIGIN,
  STRIPE_SECRET_KEY: "sk_test_never_called",
  STRIPE_WEBHOOK_SECRET: "whsec_never_called",
  SMTP_URL: "smtp://127.0.0.1:9",
};

function subscribe(email: string) {
  return fetch(`${ORIGIN}/functions/v1/send-welcome-email`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
}

/** Waits until the worker has claimed the welcome email to `to`: it is being sent. */
async function untilSending(to: string) {
  for (let tries = 0; tries < 100; tries++) {
    const row = await db.outboxMessage.findFirst({ where: { to } });
    if (row?.status === "sending") return row;
    await sleep(50);
  }
  throw new Error(`the email to ${to} was never claimed`);
}

/** What a request on a connection of its own meets: an answer's status, or the connection error's code. */
function newConnection() {
  return new Promise<string>((resolve) => {
    const request = http.get(`${ORIGIN}/healthz`, { agent: false }, (response) => {
      response.resume();
      resolve(String(response.statusCode));
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

/** A POST whose body arrives in two parts: `finish()` sends the rest and answers the status. */
function slowPost(path: string, body: string) {
  const half = Math.floor(body.length / 2);
  let answer: (status: number) => void;
  const answered = new Promise<number>((resolve) => (answer = resolve));
  const request = http.request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
  });
  request.on("response", (response) => {
    response.resume();
    response.on("end", () => answer(response.statusCode ?? 0));
  });
  request.on("error", () => answer(-1));
  request.write(body.slice(0, half));
  return { finish: () => (request.end(body.slice(half)), answered) };
}

test("SIGTERM: the request under way is answered, the email being sent is finished and recorded, then the process exits 0", async () => {
  // Each email takes the mail server 2.5 s to accept, so the stop lands in the middle of one.
  const smtp = await startSmtpServer(0, { delayMs: 2_500 });
  try {
    const shop = await startShop(smtp);
    const first = `first-${Date.now()}@example.com`;
    expect((await subscribe(first)).status).toBe(200);
    await untilSending(first);

    const second = `second-${Date.now()}@example.com`;
    const underWay = slowPost("/functions/v1/send-welcome-email", JSON.stringify({ email: second }));
    await sleep(200);
    const stoppedAt = Date.now();
    shop.child.kill("SIGTERM");
    await sleep(300);
    // No new connections while it stops (the load balancer sends them to another instance).
    expect(await newConnection()).toBe("ECONNREFUSED");
    expect(await underWay.finish()).toBe(200);

    expect(await shop.exited).toBe(0);
    // It waited for the mail server to accept the email in flight…
    expect(Date.now() - stoppedAt).toBeGreaterThan(1_500);
    expect(smtp.to(first)).toHaveLength(1);
    expect(await db.outboxMessage.findFirst({ where: { to: first } })).toMatchObject({ status: "sent", claimedBy: null });
    // …and sent nothing more: the email the last request queued waits, unclaimed, for another instance.
    expect(await db.outboxMessage.findFirst({ where: { to: second } })).toMatchObject({ status: "pending", claimedBy: null });
    expect(smtp.to(second)).toHaveLength(0);
    expect(messages(shop)).toMatch(/SIGTERM: finishing the requests and the email under way \(at most 25 s\)[\s\S]*Stopped cleanly in \d+ ms\./);
  } finally {
    await smtp.close();
  }
});

test("SIGTERM waits at most SHUTDOWN_TIMEOUT_MS for an email in flight, then exits 1 and leaves the email to its lease", async () => {
  const smtp = await startSmtpServer(0, { delayMs: 20_000 });
  try {
    // The email the test above left pending would be sent first: an empty outbox.
    await db.outboxMessage.deleteMany();
    const shop = await startShop(smtp, { SHUTDOWN_TIMEOUT_MS: "1500" });
    const to = `stuck-${Date.now()}@example.com`;
    expect((await subscribe(to)).status).toBe(200);
    await untilSending(to);

    const stoppedAt = Date.now();
    shop.child.kill("SIGTERM");
    expect(await shop.exited).toBe(1);
    const took = Date.now() - stoppedAt;
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(5_000);
    expect(messages(shop)).toContain("Stopped after 1500 ms with work still under way");
    // Still claimed: when the lease runs out another instance's worker sends it.
    const row = await db.outboxMessage.findFirst({ where: { to } });
    expect(row).toMatchObject({ status: "sending" });
    expect(row?.claimedUntil?.getTime()).toBeGreaterThan(Date.now());
  } finally {
    await smtp.close();
  }
});

/** GET `path` on `agent`'s connection: the status and the JSON body. */
function getOn(agent: http.Agent, path: string) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    http
      .get(`${ORIGIN}${path}`, { agent }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      })
      .on("error", reject);
  });
}

test("the start-up line names the release; once SIGTERM has arrived /readyz answers 503 on a connection still open, while /healthz says it is alive", async () => {
  const smtp = await startSmtpServer(0);
  try {
    const shop = await startShop(smtp);
    const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    expect(messages(shop)).toContain(`Chill PB ${version} (${commit.slice(0, 7)}) is ready at`);
    const release = { version, commit };

    // Two kept-alive connections, as a load balancer's probe and a proxy hold them.
    const probe = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const alive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await getOn(probe, "/readyz")).toMatchObject({ status: 200, body: { status: "ready", release } });
    expect(await getOn(alive, "/healthz")).toEqual({ status: 200, body: { status: "alive", release } });
    // A request under way keeps the process from exiting while the probe asks again.
    const underWay = slowPost("/functions/v1/send-welcome-email", JSON.stringify({ email: `late-${Date.now()}@example.com` }));
    await sleep(100);

    shop.child.kill("SIGTERM");
    await sleep(200);
    expect(await getOn(probe, "/readyz")).toEqual({ status: 503, body: { status: "not-ready", reason: "shutting down", release } });
    expect(await getOn(alive, "/healthz")).toEqual({ status: 200, body: { status: "alive", release } });
    expect(await underWay.finish()).toBe(200);
    expect(await shop.exited).toBe(0);
    probe.destroy();
    alive.destroy();
  } finally {
    await smtp.close();
  }
});

test("a production server without SMTP_URL refuses to start and says why", async () => {
  const shop = await launch({ ...production, SMTP_URL: undefined });
  expect(await shop.exited).toBe(1);
  expect(shop.output()).toBe(
    "Invalid environment:\n  - SMTP_URL: SMTP_URL is required in production: without a mail server every email would be written to var/mail/ on this machine and never sent\n",
  );
});

test("a fully configured shop without NODE_ENV=production refuses to start, says what to set, and touches no database", async () => {
  const { url, drop } = await scratchDatabase("chillpb_e2e_unmarked");
  try {
    const { NODE_ENV: _, ...settings } = production;
    const shop = await launch({ ...settings, DATABASE_URL: url });
    expect(await shop.exited).toBe(1);
    expect(shop.output()).toBe(
      "SESSION_SECRET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET are set but NODE_ENV is not set: this looks like a real shop, which must not start as the demo (stand-ins, demo accounts with public passwords). Set NODE_ENV=production to run the real shop, or unset them to run the demo.\n",
    );
    const tables = await withClient(url, (client) =>
      client.query("SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = 'public'"),
    );
    expect(tables.rows).toEqual([{ count: 0 }]);
  } finally {
    await drop();
  }
});

test("DEMO=true is refused in production", async () => {
  const shop = await launch({ ...production, DEMO: "true" });
  expect(await shop.exited).toBe(1);
  expect(shop.output()).toMatch(/^DEMO=true is refused with NODE_ENV=production/);
});

test("a real shop's database never runs the demo, and the demo's database never runs a real shop", async () => {
  // Four shop starts, each migrating a fresh database.
  test.setTimeout(120_000);
  const real = await scratchDatabase("chillpb_e2e_real");
  const demo = await scratchDatabase("chillpb_e2e_demo");
  try {
    // A real shop claims its database on its first start…
    const shop = await launch({ ...production, DATABASE_URL: real.url }, { waitUntilReady: true });
    await shop.stop();
    expect(await shop.exited).toBe(0);
    // …and the demo, started on it by mistake, refuses before it seeds its accounts.
    const demoOnReal = await launch({ DATABASE_URL: real.url });
    expect(await demoOnReal.exited).toBe(1);
    expect(demoOnReal.output()).toContain("This database belongs to a real shop");
    const realDb = createPrismaClient(real.url);
    try {
      expect(await realDb.adminUser.count()).toBe(0);
      expect(await realDb.order.count()).toBe(0);
    } finally {
      await realDb.$disconnect();
    }

    const demoShop = await launch({ DATABASE_URL: demo.url }, { waitUntilReady: true });
    await demoShop.stop();
    const realOnDemo = await launch({ ...production, DATABASE_URL: demo.url });
    expect(await realOnDemo.exited).toBe(1);
    expect(realOnDemo.output()).toContain("This database was made by the demo: it holds the demo's accounts, whose passwords are public.");
  } finally {
    await real.drop();
    await demo.drop();
  }
});
