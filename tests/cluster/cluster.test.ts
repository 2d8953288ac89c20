import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withClient } from "../../scripts/scratch-postgres.mjs";
import { startSmtpServer, type TestSmtpServer } from "../integration/smtp";
import { scratchDatabase, type ScratchDatabase } from "../support/shop-process";

/**
 * Three shop processes on different ports over one PostgreSQL database, as
 * behind a load balancer: what one instance does, the others see. Run by
 * `npm run test:cluster` on a built shop, against TEST_POSTGRES_URL's server
 * (CI: the machine's PostgreSQL, a server of its own as production's several
 * instances have) or else the embedded test server.
 */

const PORTS = [3401, 3402, 3403] as const;
const origin = (port: number) => `http://127.0.0.1:${port}`;
const [A, B, C] = PORTS.map(origin) as [string, string, string];
const FULFILMENT = "kitchen@cluster.test";
const RATE_LIMIT = 10;

let cluster: ScratchDatabase;
const instances = new Map<number, ChildProcess>();
let smtp: TestSmtpServer;

function environment(port: number): NodeJS.ProcessEnv {
  // Vitest's NODE_ENV=test is not the operator's: these instances are the demo.
  const { NODE_ENV: _nodeEnv, ...inherited } = process.env;
  const env: Record<string, string | undefined> = {
    ...inherited,
    // The demo (NODE_ENV unset): the stand-ins, its fixed session secret shared by every instance.
    PORT: String(port),
    DATABASE_URL: cluster.url,
    PUBLIC_URL: origin(port),
    // Each test client says who it is in X-Forwarded-For, as a load balancer would.
    TRUST_PROXY: "1",
    SMTP_URL: smtp.url,
    FULFILMENT_EMAIL: FULFILMENT,
    OUTBOX_POLL_MS: "200",
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    // The test runs on a built shop; instances starting together must not build at once.
    SKIP_BUILD: "true",
  };
  return env as NodeJS.ProcessEnv;
}

/** What each instance printed (its JSON log lines and anything else), kept for a failing test's report. */
const printed = new Map<number, string>();

async function startInstance(port: number) {
  // Kept, not shown: a test that fails prints every instance's output (below); one that passes prints nothing of it.
  const child = spawn(process.execPath, ["server.mjs"], { env: environment(port), stdio: ["ignore", "pipe", "pipe"] });
  printed.set(port, "");
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => printed.set(port, printed.get(port) + chunk.toString()));
  instances.set(port, child);
  for (let tries = 0; tries < 150; tries++) {
    const up = await fetch(`${origin(port)}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`instance on ${port} did not start; it printed:\n${printed.get(port)}`);
}

function stopInstance(port: number, signal: NodeJS.Signals = "SIGTERM") {
  const child = instances.get(port);
  instances.delete(port);
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const [port, output] of printed) console.error(`--- instance ${origin(port)}: what it printed\n${output.slice(-20_000)}`);
  });
});

beforeAll(async () => {
  smtp = await startSmtpServer();
  cluster = await scratchDatabase("chillpb_cluster");
  // Started together, as after a deploy: each migrates and seeds as `npm start` does, one at a time under the start-up lock.
  await Promise.all(PORTS.map(startInstance));
}, 240_000);

afterAll(async () => {
  await Promise.all([...instances.keys()].map((port) => stopInstance(port)));
  await smtp?.close();
  await cluster?.drop();
}, 60_000);

let clients = 0;
/** A visitor of its own: its own address, as the load balancer reports it. */
function visitor() {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

function post(base: string, path: string, body: string, headers: Record<string, string>) {
  return fetch(`${base}${path}`, { method: "POST", redirect: "manual", headers: { Origin: base, ...headers }, body });
}

function postJson(base: string, path: string, body: unknown, address = visitor()) {
  return post(base, path, JSON.stringify(body), { "Content-Type": "application/json", "X-Forwarded-For": address });
}

function postForm(base: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return post(base, path, new URLSearchParams(fields).toString(), {
    "Content-Type": "application/x-www-form-urlencoded",
    "X-Forwarded-For": visitor(),
    ...headers,
  });
}

/** The part of a Set-Cookie answer that goes back in a Cookie header. */
function cookiesOf(response: Response) {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

function order(email = `cluster-${randomUUID().slice(0, 8)}@example.com`) {
  return {
    items: [{ product: { id: "bites-variety" }, quantity: 3 }],
    email,
    shipping: {
      firstName: "Jamie",
      lastName: "Rivera",
      email,
      phone: "310-555-0100",
      address: "11600 Wilshire Blvd",
      city: "Los Angeles",
      state: "CA",
      zipCode: "90025",
    },
  };
}

async function placeOrder(base: string) {
  const response = await postJson(base, "/functions/v1/simple-checkout", order());
  expect(response.status).toBe(200);
  const { orderId, url: paymentUrl } = (await response.json()) as { orderId: string; url: string };
  return { orderId, sessionId: paymentUrl.split("/").pop()! };
}

async function database<T>(work: (client: pg.Client) => Promise<T>) {
  return withClient(cluster.url, work);
}

async function emailsFor(orderId: string, { settleMs = 1500, timeoutMs = 20_000 } = {}) {
  const short = orderId.slice(0, 8);
  const matching = () => smtp.received.filter((email) => email.subject.includes(short));
  const deadline = Date.now() + timeoutMs;
  while (matching().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  // Wait a little longer: a second copy would arrive now.
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return matching();
}

describe("three instances on one PostgreSQL database", () => {
  it("a cart built on one instance checks out on another", async () => {
    // Plain form posts, as a browser without JavaScript sends them.
    const browser = { "X-Forwarded-For": visitor(), Accept: "text/html" };
    const added = await postForm(A, "/cart", { intent: "add", productId: "bar-chocolate-pb", quantity: "4" }, browser);
    expect(added.status).toBe(302);
    const cookie = cookiesOf(added);
    expect(cookie).toContain("chillpb_cart=");

    const page = await fetch(`${B}/checkout`, { headers: { ...browser, Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Chocolate Crunch");

    const { email, shipping } = order();
    const address = [shipping.address, shipping.city, shipping.state, shipping.zipCode];
    const placed = await postForm(
      C,
      "/checkout",
      // The delivery check this address already passed on the page (the form's hidden field).
      { intent: "place-order", ...shipping, email, code: "", appliedCode: "", checkedAddress: address.map((part) => part.toLowerCase()).join("|") },
      { ...browser, Cookie: cookie },
    );
    expect(placed.status).toBe(303);
    expect(placed.headers.get("Location")).toMatch(/\/mock-stripe\/pay\/cs_/);
    const orders = await database((client) => client.query(`SELECT "subtotalCents" FROM "Order" WHERE email = $1`, [email]));
    expect(orders.rows).toEqual([{ subtotalCents: 2400 }]);
  });

  it("a webhook at one instance while verify-payment runs on the other two pays the order once, with one confirmation and one kitchen email", async () => {
    const { orderId, sessionId } = await placeOrder(C);
    const { totalCents } = (await database((client) => client.query(`SELECT "totalCents" FROM "Order" WHERE id = $1`, [orderId]))).rows[0] as {
      totalCents: number;
    };
    const dailyTotals = async () =>
      (
        await database((client) =>
          client.query(`SELECT coalesce(sum(orders), 0)::int AS orders, coalesce(sum("revenueCents"), 0)::int AS "revenueCents" FROM "DailySales"`),
        )
      ).rows[0] as { orders: number; revenueCents: number };
    const totalsBefore = await dailyTotals();

    // B and C ask verify-payment again and again, as a customer's success page would, from before
    // the payment until it answers paid: each instance keeps an unpaid answer 2 s, so this can
    // take a few rounds. Each call comes from its own address, so the rate limit never answers.
    type Answer = { instance: string; verified: boolean; orderId: string | null; answeredAt: number };
    const answers: Answer[] = [];
    const verifyUntilPaid = async (instance: string) => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const answer = (await (await postJson(instance, "/functions/v1/verify-payment", { sessionId })).json()) as {
          verified: boolean;
          orderId: string | null;
        };
        answers.push({ instance, ...answer, answeredAt: Date.now() });
        if (answer.verified) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`verify-payment on ${instance} never answered paid`);
    };
    const verifying = Promise.all([verifyUntilPaid(B), verifyUntilPaid(C)]);
    // Both loops are under way before the payment is made.
    while (!(answers.some((answer) => answer.instance === B) && answers.some((answer) => answer.instance === C))) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // The payment page on A marks the session paid and sends Stripe's webhook to A.
    const paid = await postForm(A, `/mock-stripe/pay/${sessionId}`, { card: "4242 4242 4242 4242" });
    expect(paid.status).toBe(302);
    await verifying;

    // paidAt is UTC in a column without a time zone: read it as milliseconds since the epoch.
    const order = (
      await database((client) =>
        client.query(`SELECT "paymentStatus", (extract(epoch FROM "paidAt" AT TIME ZONE 'UTC') * 1000)::float8 AS "paidAtMs" FROM "Order" WHERE id = $1`, [
          orderId,
        ]),
      )
    ).rows[0] as { paymentStatus: string; paidAtMs: number };
    expect(order.paymentStatus).toBe("paid");
    // verify-payment ran on both other instances across the moment the order was paid: unpaid
    // answers before it (B and C ran while the payment and its webhook did), paid ones after.
    for (const instance of [B, C]) {
      const own = answers.filter((answer) => answer.instance === instance);
      expect(own.at(-1)).toMatchObject({ verified: true, orderId });
      expect(own.filter((answer) => !answer.verified).every((answer) => answer.orderId === orderId)).toBe(true);
    }
    const unpaidBeforePaid = answers.filter((answer) => !answer.verified && answer.answeredAt < order.paidAtMs);
    expect(unpaidBeforePaid.length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((answer) => answer.verified).every((answer) => answer.answeredAt >= order.paidAtMs)).toBe(true);

    // Paid once: one transition counted in the daily totals, one confirmation and one kitchen email queued and sent.
    const totalsAfter = await dailyTotals();
    expect({ orders: totalsAfter.orders - totalsBefore.orders, revenueCents: totalsAfter.revenueCents - totalsBefore.revenueCents }).toEqual({
      orders: 1,
      revenueCents: totalCents,
    });
    const queued = await database((client) =>
      client.query(`SELECT kind, count(*)::int AS count FROM "OutboxMessage" WHERE "orderId" = $1 GROUP BY kind ORDER BY kind`, [orderId]),
    );
    expect(queued.rows).toEqual([
      { kind: "order-confirmation", count: 1 },
      { kind: "order-fulfilment", count: 1 },
    ]);
    const emails = await emailsFor(orderId);
    expect(emails.filter((email) => email.envelope.to.includes(FULFILMENT))).toHaveLength(1);
    expect(emails.filter((email) => !email.envelope.to.includes(FULFILMENT))).toHaveLength(1);
    console.log(
      `verify-payment during the payment: ${answers.length} answers from B and C, ${unpaidBeforePaid.length} unpaid before the order was paid, ` +
        `the first paid one ${Math.min(...answers.filter((answer) => answer.verified).map((answer) => answer.answeredAt)) - order.paidAtMs} ms after`,
    );
  }, 60_000);

  it("the outbox workers of all instances send each email once", async () => {
    const placed = await Promise.all(Array.from({ length: 12 }, (_, index) => placeOrder(origin(PORTS[index % 3]!))));
    await Promise.all(placed.map(({ sessionId }, index) => postForm(origin(PORTS[index % 3]!), `/mock-stripe/pay/${sessionId}`, { card: "4242424242424242" })));
    for (const { orderId } of placed) {
      const emails = await emailsFor(orderId, { settleMs: 0 });
      expect(emails, orderId).toHaveLength(2);
    }
    // Every instance's worker has had time to pick up a copy, had it been able to.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const ids = smtp.received.map((email) => email.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    const statuses = await database((client) =>
      client.query(`SELECT status, count(*)::int AS count FROM "OutboxMessage" WHERE "orderId" = ANY($1) GROUP BY status`, [
        placed.map(({ orderId }) => orderId),
      ]),
    );
    expect(statuses.rows).toEqual([{ status: "sent", count: 24 }]);
  }, 90_000);

  it("the rate limit counts one visitor's requests on every instance together", async () => {
    const address = visitor();
    const answers: number[] = [];
    for (let index = 0; index < RATE_LIMIT + 3; index++) {
      const response = await postJson(
        origin(PORTS[index % 3]!),
        "/functions/v1/validate-discount-code",
        { code: "WELCOME10", email: "a@example.com" },
        address,
      );
      answers.push(response.status);
    }
    expect(answers.slice(0, RATE_LIMIT).every((status) => status === 200)).toBe(true);
    expect(answers.slice(RATE_LIMIT)).toEqual([429, 429, 429]);
  });

  it("an operator signed in on one instance is signed in on all; signing out on one ends it everywhere", async () => {
    const email = `operator-${randomUUID().slice(0, 8)}@cluster.test`;
    const password = "a long cluster passphrase";
    const created = spawnSync(
      process.execPath,
      ["node_modules/.bin/tsx", "scripts/admin-create.ts", "--email", email, "--password", password, "--role", "staff"],
      {
        env: environment(PORTS[0]),
        encoding: "utf8",
      },
    );
    expect(created.status, created.stderr).toBe(0);

    const signedIn = await postForm(A, "/auth/login", { email, password });
    expect(signedIn.status).toBe(200);
    const cookie = cookiesOf(signedIn);
    const me = (base: string) => fetch(`${base}/auth/me`, { headers: { Cookie: cookie } }).then((response) => response.status);
    expect([await me(A), await me(B), await me(C)]).toEqual([200, 200, 200]);

    const out = await postForm(C, "/auth/logout", {}, { Cookie: cookie });
    expect(out.status).toBeLessThan(400);
    expect([await me(A), await me(B), await me(C)]).toEqual([401, 401, 401]);
  });

  it("an instance killed in the middle of 300 orders loses no acknowledged order", async () => {
    const acknowledged: string[] = [];
    let refused = 0;
    let next = 0;
    const live = new Set<number>(PORTS);
    // 20 clients, each placing orders one after another through whichever instance is up, as a load balancer would.
    async function client() {
      while (next < 300) {
        const index = next++;
        if (index === 100) void stopInstance(PORTS[1], "SIGKILL").then(() => live.delete(PORTS[1]));
        const port = [...live][index % live.size]!;
        try {
          const response = await postJson(origin(port), "/functions/v1/simple-checkout", order());
          if (response.status === 200) acknowledged.push(((await response.json()) as { orderId: string }).orderId);
          else refused++;
        } catch {
          // The connection died with the instance: not acknowledged, so the customer was never told it worked.
          refused++;
        }
      }
    }
    await Promise.all(Array.from({ length: 20 }, client));

    expect(acknowledged.length).toBeGreaterThan(250);
    const stored = await database((client) => client.query(`SELECT id FROM "Order" WHERE id = ANY($1) AND "stripeSessionId" IS NOT NULL`, [acknowledged]));
    expect(stored.rows.length).toBe(acknowledged.length);
    console.log(`300 orders with an instance killed after 100: ${acknowledged.length} acknowledged and stored, ${refused} refused or cut off`);
  }, 180_000);
});
