import { http, HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { NO_PAGE_AFTER_MS, PAGE_SETTLED_AFTER_MS, RECONCILE_AFTER_MS, reconcilePayments, sweepOrphanOrders } from "~/models/orphan-orders.server";
import { runJobIfDue, type Job } from "~/services/jobs.server";
import { clearCheckoutSessionCache } from "~/services/stripe.server";
import { db } from "~/utils/db.server";
import { callFunction, placeOrder, readJson, signedInAdmin, uniqueEmail, type ErrorJson } from "../utils";

/**
 * The shop's periodic work (decision 044) and the first job on it, the
 * orphan sweep (a SIGKILL mid-checkout left orders with no payment
 * page holding a limited code's uses for ever).
 */

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  clearCheckoutSessionCache();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const later = (ms: number) => new Date(Date.now() + ms);
const usesHeld = async (code: string) => (await db.discountCode.findUniqueOrThrow({ where: { code } })).usesHeld;
const orderRow = (id: string) => db.order.findUniqueOrThrow({ where: { id } });

/** An order whose placer died after writing it and before Stripe made its page: no session on the order. */
async function orderWithoutPage() {
  const placed = await placeOrder([["bites-variety", 3]], { email: uniqueEmail("crash"), discountCode: "WELCOME10" });
  await db.order.update({ where: { id: placed.orderId }, data: { stripeSessionId: null, stripeSessionUrl: null } });
  return placed;
}

describe("the orphan sweep", () => {
  it("gives up an order left without a payment page, and gives back its code's use and first-order claim", async () => {
    const before = await usesHeld("WELCOME10");
    const { orderId } = await orderWithoutPage();
    expect(await usesHeld("WELCOME10")).toBe(before + 1);

    // Not yet: its placer may still be waiting for Stripe.
    await sweepOrphanOrders(later(NO_PAGE_AFTER_MS / 2));
    expect((await orderRow(orderId)).paymentStatus).toBe("unpaid");

    const result = await sweepOrphanOrders(later(NO_PAGE_AFTER_MS + 60_000));
    expect(result.givenUp).toBeGreaterThanOrEqual(1);
    const order = await orderRow(orderId);
    expect({ paymentStatus: order.paymentStatus, firstOrderClaim: order.firstOrderClaim }).toEqual({ paymentStatus: "expired", firstOrderClaim: null });
    expect(await usesHeld("WELCOME10")).toBe(before);
    // A second run finds nothing more to do for it.
    await sweepOrphanOrders(later(NO_PAGE_AFTER_MS + 120_000));
    expect(await usesHeld("WELCOME10")).toBe(before);
  });

  it("marks paid an order whose page was paid but whose payment event never came, and tells the kitchen once", async () => {
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    await sweepOrphanOrders(later(PAGE_SETTLED_AFTER_MS + 60_000));
    expect((await orderRow(orderId)).paymentStatus).toBe("paid");
    await sweepOrphanOrders(later(PAGE_SETTLED_AFTER_MS + 120_000));
    const emails = await db.outboxMessage.findMany({ where: { orderId }, orderBy: { kind: "asc" } });
    expect(emails.map(({ kind }) => kind)).toEqual(["order-confirmation", "order-fulfilment"]);
  });

  it("closes a page whose expiry never reached the shop and gives the order up", async () => {
    const before = await usesHeld("WELCOME10");
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]], { email: uniqueEmail("lost-expiry"), discountCode: "WELCOME10" });
    await sweepOrphanOrders(later(PAGE_SETTLED_AFTER_MS - 60_000));
    expect((await orderRow(orderId)).paymentStatus).toBe("unpaid");

    await sweepOrphanOrders(later(PAGE_SETTLED_AFTER_MS + 60_000));
    expect((await orderRow(orderId)).paymentStatus).toBe("expired");
    expect((await stripeMock.session(sessionId))?.status).toBe("expired");
    expect(await usesHeld("WELCOME10")).toBe(before);
  });

  it("leaves an order alone while Stripe cannot be asked, and settles it on a later run", async () => {
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    server.use(http.get("https://api.stripe.com/v1/checkout/sessions/:id", () => HttpResponse.error()));
    const blind = await sweepOrphanOrders(later(PAGE_SETTLED_AFTER_MS + 60_000));
    expect(blind.left).toBeGreaterThanOrEqual(1);
    expect((await orderRow(orderId)).paymentStatus).toBe("unpaid");

    server.resetHandlers();
    clearCheckoutSessionCache();
    await sweepOrphanOrders(later(PAGE_SETTLED_AFTER_MS + 120_000));
    expect((await orderRow(orderId)).paymentStatus).toBe("paid");
  });
});

describe("payment reconciliation (webhooks that never came)", () => {
  const kinds = async (orderId: string) =>
    (await db.outboxMessage.findMany({ where: { orderId }, orderBy: { kind: "asc" }, select: { kind: true } })).map(({ kind }) => kind);

  it("with webhooks down and the tabs closed, one run marks all 20 paid orders paid, each with one confirmation and one kitchen email", async () => {
    const orders = [];
    for (let index = 0; index < 20; index++) orders.push(await placeOrder());
    // The customers pay on Stripe's page and close the tab: no webhook, no /order-success.
    for (const { sessionId } of orders) await stripeMock.pay(sessionId);
    // An open page and a fresh one are left alone.
    const open = await placeOrder();

    // Too early: the webhook normally settles a page within seconds.
    expect((await reconcilePayments({ now: later(RECONCILE_AFTER_MS / 2) })).paid).toBe(0);

    const result = await reconcilePayments({ now: later(RECONCILE_AFTER_MS + 60_000) });
    expect(result.paid).toBe(20);
    for (const { orderId } of orders) {
      expect((await orderRow(orderId)).paymentStatus).toBe("paid");
      expect(await kinds(orderId)).toEqual(["order-confirmation", "order-fulfilment"]);
    }
    expect((await orderRow(open.orderId)).paymentStatus).toBe("unpaid");

    // Run again, and let the webhook arrive late as well: still one of each.
    clearCheckoutSessionCache();
    expect((await reconcilePayments({ now: later(RECONCILE_AFTER_MS + 120_000) })).paid).toBe(0);
    for (const { orderId } of orders) expect(await kinds(orderId)).toEqual(["order-confirmation", "order-fulfilment"]);
  });

  it("gives up an order whose page expired at Stripe without the shop hearing of it", async () => {
    const before = await usesHeld("WELCOME10");
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]], { email: uniqueEmail("expired"), discountCode: "WELCOME10" });
    await stripeMock.timeOut(sessionId);
    const result = await reconcilePayments({ now: later(RECONCILE_AFTER_MS + 60_000) });
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect((await orderRow(orderId)).paymentStatus).toBe("expired");
    expect(await usesHeld("WELCOME10")).toBe(before);
  });

  it("a demo payment page past its expires_at cannot be paid, and reconciliation gives its order up and returns the code's use", async () => {
    const before = await usesHeld("WELCOME10");
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]], { email: uniqueEmail("stale-page"), discountCode: "WELCOME10" });
    // Two hours later: the stand-in, like Stripe, no longer takes the payment.
    await db.mockCheckoutSession.update({ where: { id: sessionId }, data: { expiresAt: new Date(Date.now() - 60 * 60_000) } });
    expect(await stripeMock.pay(sessionId)).toBeNull();
    expect((await stripeMock.session(sessionId))?.status).toBe("expired");

    await reconcilePayments({ now: later(RECONCILE_AFTER_MS + 60_000) });
    expect((await orderRow(orderId)).paymentStatus).toBe("expired");
    expect(await usesHeld("WELCOME10")).toBe(before);
  });

  it("reconcile-payments: the owner runs it now over every opened page, whatever its age; staff may not", async () => {
    const owner = await signedInAdmin("reconciler", "owner");
    const staff = await signedInAdmin("reconcile-staff", "staff");
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);

    const refused = await callFunction("reconcile-payments", {}, { cookie: staff.cookie });
    expect(refused.status).toBe(403);
    expect(await readJson<ErrorJson>(refused)).toEqual({ error: expect.any(String) });
    expect((await orderRow(orderId)).paymentStatus).toBe("unpaid");

    expect((await callFunction("reconcile-payments", { everything: true }, { cookie: owner.cookie })).status).toBe(400);

    const response = await callFunction("reconcile-payments", {}, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const body = await readJson<{ checked: number; paid: number; expired: number }>(response);
    expect(body.paid).toBeGreaterThanOrEqual(1);
    expect(body.checked).toBeGreaterThanOrEqual(body.paid + body.expired);
    expect((await orderRow(orderId)).paymentStatus).toBe("paid");
  });
});

describe("background jobs: once per period across instances", () => {
  let counter = 0;
  const job = (overrides: Partial<Job> = {}): Job => ({
    name: `test-job-${++counter}`,
    everyMs: 60_000,
    leaseMs: 30_000,
    run: async () => "done",
    ...overrides,
  });

  it("runs in one instance when two look at the same moment, then not again until the period has passed", async () => {
    let runs = 0;
    const shared = job({ run: async () => `run ${++runs}` });
    const now = new Date();
    const outcomes = await Promise.all(["instance-a", "instance-b", "instance-c"].map((worker) => runJobIfDue(shared, worker, now)));
    expect(outcomes.sort()).toEqual(["not-due", "not-due", "ran"]);
    expect(runs).toBe(1);

    expect(await runJobIfDue(shared, "instance-b", new Date(now.getTime() + 30_000))).toBe("not-due");
    expect(await runJobIfDue(shared, "instance-b", new Date(now.getTime() + 60_000))).toBe("ran");
    expect(runs).toBe(2);
    const row = await db.backgroundJob.findUniqueOrThrow({ where: { name: shared.name } });
    expect({ leasedBy: row.leasedBy, lastResult: row.lastResult, failures: row.failures }).toEqual({ leasedBy: null, lastResult: "run 2", failures: 0 });
  });

  it("is not started twice while a run is under way, and is taken over once the lease of a dead instance has ended", async () => {
    let release!: () => void;
    const slow = job({ leaseMs: 120_000, run: () => new Promise<string>((resolve) => (release = () => resolve("slow run"))) });
    const start = new Date();
    const first = runJobIfDue(slow, "instance-a", start);
    await vi.waitFor(async () => expect((await db.backgroundJob.findUnique({ where: { name: slow.name } }))?.leasedBy).toBe("instance-a"));
    // Due again by the clock, but held.
    expect(await runJobIfDue({ ...slow, run: async () => "second" }, "instance-b", new Date(start.getTime() + 61_000))).toBe("not-due");
    release();
    expect(await first).toBe("ran");

    // An instance that died holding the lease: another takes the job once the lease has run out.
    await db.backgroundJob.update({ where: { name: slow.name }, data: { leasedBy: "dead-instance", leasedUntil: new Date(start.getTime() + 90_000) } });
    expect(await runJobIfDue({ ...slow, run: async () => "taken over" }, "instance-b", new Date(start.getTime() + 80_000))).toBe("not-due");
    expect(await runJobIfDue({ ...slow, run: async () => "taken over" }, "instance-b", new Date(start.getTime() + 120_000))).toBe("ran");
    expect((await db.backgroundJob.findUniqueOrThrow({ where: { name: slow.name } })).lastResult).toBe("taken over");
  });

  it("records a failed run and counts failures in a row, and a good run clears them", async () => {
    let fail = true;
    const flaky = job({
      run: async () => {
        if (fail) throw new Error("the database went away");
        return "ok";
      },
    });
    const start = Date.now();
    expect(await runJobIfDue(flaky, "instance-a", new Date(start))).toBe("failed");
    expect(await runJobIfDue(flaky, "instance-a", new Date(start + 60_000))).toBe("failed");
    let row = await db.backgroundJob.findUniqueOrThrow({ where: { name: flaky.name } });
    expect({ failures: row.failures, leasedBy: row.leasedBy, lastError: row.lastError }).toEqual({
      failures: 2,
      leasedBy: null,
      lastError: expect.stringContaining("the database went away"),
    });
    fail = false;
    expect(await runJobIfDue(flaky, "instance-a", new Date(start + 120_000))).toBe("ran");
    row = await db.backgroundJob.findUniqueOrThrow({ where: { name: flaky.name } });
    expect({ failures: row.failures, lastError: row.lastError, lastResult: row.lastResult }).toEqual({ failures: 0, lastError: null, lastResult: "ok" });
  });
});
