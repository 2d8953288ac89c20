import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { closeCheckoutSession } from "~/services/stripe.server";
import { db } from "~/utils/db.server";
import { callFunction, callRoute, deliverStripeEvent, formRequest, placeOrder, readJson, shopRequest, SHOP_ORIGIN, type VerifyJson } from "../utils";

/**
 * The demo's Stripe stand-in keeps its Checkout Sessions in the database, so
 * a session created by one server instance can be shown, paid, expired and
 * verified by another, or by the same one after a restart.
 */

const INSTANCE = path.resolve("tests/integration/stripe-mock-instance.ts");
const TSX = path.resolve("node_modules/.bin/tsx");

type Instance = Awaited<ReturnType<typeof anotherInstance>>;

// The process's client and pool (app/utils/db.server.ts), set aside so the modules imported afresh make their own.
const globalForDb = globalThis as typeof globalThis & { __database?: unknown };

/**
 * Another server instance inside this test process: the stand-in and its
 * payment page imported afresh, so they remember nothing of this one (as after
 * a restart), over a database connection of their own on the same file.
 */
async function anotherInstance() {
  const ours = globalForDb.__database;
  const mocks = process.env.MOCKS;
  globalForDb.__database = undefined;
  // The payment page answers only in the demo.
  process.env.MOCKS = "true";
  vi.resetModules();
  try {
    const { stripeMock, stripeHandlers } = await import("../../mocks/stripe");
    const handlers = await stripeHandlers();
    const payPage = await import("../../mocks/payment-page");
    const { db } = await import("~/utils/db.server");
    return { stripeMock, stripeHandlers: handlers, payPage, db };
  } finally {
    globalForDb.__database = ours;
    process.env.MOCKS = mocks;
  }
}

/**
 * From now on `instance`'s stand-in answers this process's Stripe requests,
 * and the webhook its payment page sends reaches this instance's shop.
 */
function answerStripeFrom(instance: Instance) {
  server.use(
    ...instance.stripeHandlers,
    http.post(`${SHOP_ORIGIN}/webhooks/stripe`, async ({ request }) =>
      deliverStripeEvent(await request.text(), { signature: request.headers.get("Stripe-Signature") }),
    ),
  );
}

const paymentPage = (sessionId: string) => `${SHOP_ORIGIN}/mock-stripe/pay/${sessionId}`;

type InstanceProcess = { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string>; stderr: string[] };

/** Another instance in a process of its own (stripe-mock-instance.ts), about to pay or expire a session. */
function startInstance(action: "pay" | "expire", sessionId: string): InstanceProcess {
  const child = spawn(TSX, [INSTANCE, action, sessionId], { env: process.env });
  const stderr: string[] = [];
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr };
}

async function nextLine(instance: InstanceProcess) {
  const { value, done } = await instance.lines.next();
  if (done) throw new Error(`the instance exited early: ${instance.stderr.join("")}`);
  return value;
}

/**
 * Separate processes, as real instances are: two connections in one process
 * cannot race, since the SQLite driver waits for another connection's lock
 * synchronously and so holds up the very event loop that would release it.
 * Answers, in order, whether each one's payment or expiry went through.
 */
async function atOnce(...actions: ["pay" | "expire", string][]) {
  const instances = actions.map(([action, sessionId]) => startInstance(action, sessionId));
  try {
    for (const instance of instances) expect(await nextLine(instance)).toBe("ready");
    for (const instance of instances) instance.child.stdin.write("go\n");
    return await Promise.all(instances.map(async (instance) => (JSON.parse(await nextLine(instance)) as { done: boolean }).done));
  } finally {
    for (const instance of instances) instance.child.kill();
  }
}

describe("a Checkout Session outlives the instance that created it", () => {
  let other: Instance;
  beforeEach(async () => {
    other = await anotherInstance();
  });
  afterEach(async () => {
    await other.db.$disconnect();
  });

  it("is shown, paid and verified by another instance, with a database connection of its own", async () => {
    expect(other.db).not.toBe(db);
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]]);
    expect(stripeMock.requests.map((request) => request.path)).toEqual(["/v1/checkout/sessions"]);

    answerStripeFrom(other);
    const visit = { clientAddress: "203.0.113.7", params: { sessionId } };
    const page = await callRoute(other.payPage.loader, shopRequest(paymentPage(sessionId)), visit);
    expect(await page.json()).toMatchObject({ total: 4000, open: true, lines: [{ quantity: 3, unit_amount: 1000 }] });

    const card = formRequest(paymentPage(sessionId), { card: "4242 4242 4242 4242" });
    const paid = await callRoute(other.payPage.action, card, visit);
    expect(paid).toHaveRedirect(`${SHOP_ORIGIN}/order-success?session_id=${sessionId}`);
    expect(await stripeMock.session(sessionId)).toMatchObject({ status: "complete", payment_status: "paid" });
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("paid");

    const verified = await callFunction("verify-payment", { sessionId });
    expect(await readJson<VerifyJson>(verified)).toEqual({ verified: true, orderId });
    expect(other.stripeMock.requests).toEqual([expect.objectContaining({ method: "GET", path: `/v1/checkout/sessions/${sessionId}` })]);
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } })).toBe(1);
  });

  it("is expired by another instance when the shop closes its payment page", async () => {
    const { sessionId } = await placeOrder();
    answerStripeFrom(other);
    expect(await closeCheckoutSession(sessionId)).toEqual({ ok: true });
    expect(other.stripeMock.requests.map((request) => request.path)).toEqual([`/v1/checkout/sessions/${sessionId}/expire`]);
    expect(await stripeMock.session(sessionId)).toMatchObject({ status: "expired", payment_status: "unpaid" });
    expect(await other.stripeMock.pay(sessionId)).toBeNull();
  });
});

describe("instances acting on one session at once", () => {
  it("two payments at once: one goes through, the other finds the session closed", async () => {
    const { sessionId } = await placeOrder();
    expect((await atOnce(["pay", sessionId], ["pay", sessionId])).filter(Boolean)).toHaveLength(1);
    expect(await stripeMock.session(sessionId)).toMatchObject({ status: "complete", payment_status: "paid" });
  });

  it("a payment and an expiry at once: exactly one of them happens", async () => {
    const { sessionId } = await placeOrder();
    const [paid, expired] = await atOnce(["pay", sessionId], ["expire", sessionId]);
    expect(paid).not.toBe(expired);
    expect(await stripeMock.session(sessionId)).toMatchObject(
      paid ? { status: "complete", payment_status: "paid" } : { status: "expired", payment_status: "unpaid" },
    );
  });
});
