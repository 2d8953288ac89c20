import { randomUUID } from "node:crypto";
import { http, HttpResponse } from "msw";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { auditTrail } from "~/models/audit.server";
import { settlePendingRefunds } from "~/models/refunds.server";
import { refundPayment } from "~/services/stripe.server";
import { STRIPE_SLOW_REFUND_TAG } from "../../mocks/test-scenarios";
import { db } from "~/utils/db.server";
import { OWNER_ONLY_MESSAGE } from "~/lib/operators";
import type { MaskedOrder, MaskedOrderWithHistory } from "~/lib/orders";
import {
  callFunction,
  checkoutBody,
  payOrder,
  type DiscountJson,
  chargeRefunded,
  deliverStripeEvent,
  orderFor,
  placeOrder,
  readJson,
  signedInAdmin,
  stripeSessionEvent,
  type ErrorJson,
} from "../utils";

/**
 * Refunds (decisions 023, 042): the owner's refund-order through Stripe's Refunds API
 * (the MSW stand-in in mocks/stripe.ts), and Stripe's charge.refunded webhook
 * for refunds made in its dashboard. Either way an order is refunded once,
 * with one Stripe refund, one audit record and one email to the customer.
 */

const STRIPE_REFUNDS = "https://api.stripe.com/v1/refunds";

type RefundJson = { message: string; alreadyRefunded: boolean };
type WebhookJson = { received?: boolean; duplicate?: boolean; error?: string };

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("owner", "owner");
  staff = await signedInAdmin("staff", "staff");
});
beforeEach(() => {
  // Stripe failures and partial refunds are logged; keep the output quiet.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

function refund(body: unknown, cookie = owner.cookie) {
  return callFunction("refund-order", body, { cookie });
}

/** A paid order and the PaymentIntent the stand-in made when it was paid. */
async function paidOrder() {
  const { orderId, email } = await orderFor();
  const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  expect(order.paymentIntentId, "the shop keeps the paid session's PaymentIntent").toMatch(/^pi_test_/);
  expect(order.paymentIntentId).toBe((await stripeMock.session(order.stripeSessionId!))?.payment_intent);
  return { orderId, email, paymentIntentId: order.paymentIntentId!, totalCents: order.totalCents };
}

const refundCalls = () => stripeMock.requests.filter((request) => request.method === "POST" && request.path === "/v1/refunds");
const refundEmails = (orderId: string) => db.outboxMessage.findMany({ where: { orderId, kind: "order-refunded" } });
const orderRow = (orderId: string) => db.order.findUniqueOrThrow({ where: { id: orderId } });

/** Nothing about the order's payment moved: still paid, no refund, no email, no audit record. */
async function expectUnrefunded(orderId: string) {
  const order = await orderRow(orderId);
  expect(order.paymentStatus).toBe("paid");
  expect({ id: order.stripeRefundId, cents: order.refundedCents, at: order.refundedAt }).toEqual({ id: null, cents: null, at: null });
  expect(await refundEmails(orderId)).toEqual([]);
  expect(await auditTrail("order", orderId)).toEqual([]);
}

describe("refund-order: who may refund", () => {
  it("answers 401 without a session, and changes nothing", async () => {
    const { orderId } = await paidOrder();
    const response = await callFunction("refund-order", { orderId, reason: "Melted in transit" });
    expect(response.status).toBe(401);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
    await expectUnrefunded(orderId);
    expect(refundCalls()).toEqual([]);
  });

  it("answers 403 to staff: refunds are the owner's", async () => {
    const { orderId } = await paidOrder();
    const response = await refund({ orderId, reason: "Melted in transit" }, staff.cookie);
    expect(response.status).toBe(403);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: OWNER_ONLY_MESSAGE });
    await expectUnrefunded(orderId);
    expect(refundCalls()).toEqual([]);
  });
});

describe("refund-order: bad requests", () => {
  const cases: [string, (orderId: string) => unknown, RegExp][] = [
    ["no orderId", () => ({ reason: "Melted in transit" }), /^orderId: is required/],
    ["an orderId that is not a uuid", () => ({ orderId: "abc", reason: "Melted in transit" }), /^orderId: is not an order id/],
    ["no reason", (orderId) => ({ orderId }), /^reason: is required/],
    ["an empty reason", (orderId) => ({ orderId, reason: "   " }), /^reason: is required/],
    ["a reason of two letters", (orderId) => ({ orderId, reason: "no" }), /^reason: is required/],
    ["a reason over 500 characters", (orderId) => ({ orderId, reason: "x".repeat(501) }), /^reason: must be at most 500 characters/],
    ["a reason that is not text", (orderId) => ({ orderId, reason: 42 }), /^reason: must be a string/],
    ["an unknown field", (orderId) => ({ orderId, reason: "Melted in transit", refundAll: true }), /Unrecognized key/],
    [
      "an amount and lines",
      (orderId) => ({ orderId, reason: "Melted in transit", amount: 5, lines: [{ itemId: 1, quantity: 1 }] }),
      /^amount: send an amount or lines, not both/,
    ],
    ["an amount with three decimals", (orderId) => ({ orderId, reason: "Melted in transit", amount: 5.001 }), /^amount: can have at most 2 decimals/],
    ["an amount of nothing", (orderId) => ({ orderId, reason: "Melted in transit", amount: 0 }), /^amount: must be at least \$0.01/],
    ["a restock with an amount", (orderId) => ({ orderId, reason: "Melted in transit", amount: 5, restock: true }), /^restock: restocks chosen lines/],
    ["no lines", (orderId) => ({ orderId, reason: "Melted in transit", lines: [] }), /^lines: choose at least one line/],
    [
      "a line of no items",
      (orderId) => ({ orderId, reason: "Melted in transit", lines: [{ itemId: 1, quantity: 0 }] }),
      /^lines.0.quantity: must be at least 1/,
    ],
    ["a body that is not JSON", () => "{not json", /not valid JSON/],
  ];

  it.each(cases)("answers 400 to %s, and changes nothing", async (_name, body, error) => {
    const { orderId } = await paidOrder();
    const response = await refund(body(orderId));
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toMatch(error);
    await expectUnrefunded(orderId);
    expect(refundCalls()).toEqual([]);
  });

  it("answers 404 to an order that does not exist", async () => {
    const response = await refund({ orderId: randomUUID(), reason: "Melted in transit" });
    expect(response.status).toBe(404);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "No order with that id." });
    expect(refundCalls()).toEqual([]);
  });

  it("answers 409 to an order that was never paid, without asking Stripe", async () => {
    const { orderId } = await placeOrder();
    const response = await refund({ orderId, reason: "Melted in transit" });
    expect(response.status).toBe(409);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "Only a paid order can be refunded." });
    expect((await orderRow(orderId)).paymentStatus).toBe("unpaid");
    expect(refundCalls()).toEqual([]);
  });
});

describe("refund-order: a full refund, once", () => {
  it("refunds the PaymentIntent in full with the order's idempotency key, records it, audits it and emails the customer", async () => {
    const { orderId, email, paymentIntentId, totalCents } = await paidOrder();
    const response = await refund({ orderId, reason: "  Melted in transit  " });
    expect(response.status).toBe(200);
    const body = await readJson<RefundJson>(response);
    expect(body.alreadyRefunded).toBe(false);
    // Three cartons of bites at $10 and $10 shipping.
    expect(totalCents).toBe(4000);
    expect(body.message).toBe(`Order ${orderId.slice(0, 8)} is refunded: $40.00 goes back to the customer's card.`);

    expect(refundCalls()).toEqual([
      expect.objectContaining({ body: expect.objectContaining({ payment_intent: paymentIntentId }), idempotencyKey: `refund-${orderId}` }),
    ]);
    const [stripeRefund] = stripeMock.refunds();
    expect(stripeRefund).toMatchObject({ payment_intent: paymentIntentId, amount: totalCents });

    const order = await orderRow(orderId);
    expect(order).toMatchObject({
      paymentStatus: "refunded",
      stripeRefundId: stripeRefund!.id,
      refundedCents: totalCents,
      refundReason: "Melted in transit",
      refundedBy: owner.email,
    });
    expect(order.refundedAt).toBeInstanceOf(Date);

    expect(await auditTrail("order", orderId)).toEqual([
      {
        actorEmail: owner.email,
        action: "order.refund",
        at: expect.any(String),
        before: { paymentStatus: "paid", refundedCents: 0 },
        after: {
          paymentStatus: "refunded",
          refundId: stripeRefund!.id,
          amountCents: totalCents,
          refundedCents: totalCents,
          reason: "Melted in transit",
          lines: null,
          restocked: false,
        },
      },
    ]);

    const emails = await refundEmails(orderId);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: email, subject: expect.stringContaining("has been refunded") });
    expect(emails[0]!.text).toContain(`We've refunded $40.00 for order ${orderId.slice(0, 8)}`);
    expect(emails[0]!.text).toMatch(new RegExp(`http://shop\\.test/orders/${orderId}\\?token=[\\w-]{43}`));
    // The operator's reason is the shop's record, not the customer's email.
    expect(emails[0]!.text).not.toContain("Melted");

    // The operator's views say so too.
    const shown = await readJson<{ order: MaskedOrderWithHistory }>(await callFunction("get-order", { orderId }, { cookie: staff.cookie }));
    expect(shown.order.payment_status).toBe("refunded");
    expect(shown.order.refund).toEqual({
      amount_cents: totalCents,
      reason: "Melted in transit",
      refunded_by: owner.email,
      refunded_at: order.refundedAt!.toISOString(),
    });
    // Listed under Refunded and among every order (decision 093), no longer among the paid orders.
    const listed = async (payment?: string) =>
      (
        await readJson<{ orders: { id: string; payment_status: string }[] }>(
          await callFunction("get-orders", { pageSize: 100, ...(payment && { payment }) }, { cookie: owner.cookie }),
        )
      ).orders.find((row) => row.id === orderId);
    expect((await listed("refunded"))?.payment_status).toBe("refunded");
    expect((await listed())?.payment_status).toBe("refunded");
    expect(await listed("paid")).toBeUndefined();
  });

  it("called twice: one Stripe refund, one email, one audit record; the second answer says it was already refunded", async () => {
    const { orderId } = await paidOrder();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(200);
    const again = await refund({ orderId, reason: "Clicked twice" });
    expect(again.status).toBe(200);
    expect(await readJson<RefundJson>(again)).toEqual({ message: `Order ${orderId.slice(0, 8)} was already refunded.`, alreadyRefunded: true });

    expect(refundCalls()).toHaveLength(1);
    expect(stripeMock.refunds()).toHaveLength(1);
    expect(await refundEmails(orderId)).toHaveLength(1);
    expect(await auditTrail("order", orderId)).toHaveLength(1);
    expect((await orderRow(orderId)).refundReason).toBe("Melted in transit");
  });

  it("called twice at once: Stripe makes one refund (same idempotency key), the customer gets one email", async () => {
    const { orderId } = await paidOrder();
    const responses = await Promise.all([refund({ orderId, reason: "Melted in transit" }), refund({ orderId, reason: "Melted in transit" })]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    const bodies = await Promise.all(responses.map((response) => readJson<RefundJson>(response)));
    expect(bodies.map((body) => body.alreadyRefunded).sort()).toEqual([false, true]);
    expect(new Set(refundCalls().map((call) => call.idempotencyKey))).toEqual(new Set([`refund-${orderId}`]));
    expect(stripeMock.refunds()).toHaveLength(1);
    expect(await refundEmails(orderId)).toHaveLength(1);
    expect(await auditTrail("order", orderId)).toHaveLength(1);
  });

  it("answers 502 and changes nothing when Stripe answers 500; a later try refunds once", async () => {
    const { orderId } = await paidOrder();
    server.use(http.post(STRIPE_REFUNDS, () => HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 })));
    const response = await refund({ orderId, reason: "Melted in transit" });
    expect(response.status).toBe(502);
    expect(await readJson<ErrorJson>(response)).toEqual({
      error: "Stripe could not make the refund just now. Nothing was changed; please try again in a moment.",
    });
    await expectUnrefunded(orderId);

    server.resetHandlers();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(200);
    expect((await orderRow(orderId)).paymentStatus).toBe("refunded");
    expect(stripeMock.refunds()).toHaveLength(1);
    expect(await refundEmails(orderId)).toHaveLength(1);
  });

  it("answers 409 when the payment was already refunded in Stripe's dashboard and its webhook has not arrived yet", async () => {
    const { orderId, paymentIntentId, totalCents } = await paidOrder();
    await refundPayment("made-in-the-dashboard", paymentIntentId, { amountCents: totalCents, key: "made-in-the-dashboard" });
    const response = await refund({ orderId, reason: "Melted in transit" });
    expect(response.status).toBe(409);
    expect((await readJson<ErrorJson>(response)).error).toMatch(/already refunded/);
    await expectUnrefunded(orderId);
  });

  it("a late payment event for a refunded order does not make it paid again, nor confirm it twice", async () => {
    const { orderId } = await paidOrder();
    await refund({ orderId, reason: "Melted in transit" });
    const session = await stripeMock.session((await orderRow(orderId)).stripeSessionId!);
    for (const type of ["checkout.session.completed", "checkout.session.async_payment_succeeded"]) {
      expect((await deliverStripeEvent(stripeSessionEvent(type, session!))).status).toBe(200);
    }
    expect((await callFunction("verify-payment", { sessionId: session!.id })).status).toBe(200);
    expect((await orderRow(orderId)).paymentStatus).toBe("refunded");
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } })).toBe(1);
  });

  it("a refunded first order is still a first order: WELCOME10 does not apply again", async () => {
    const email = `refunded-${randomUUID().slice(0, 8)}@example.com`;
    const placed = await placeOrder([["bites-variety", 3]], { email, discountCode: "WELCOME10" });
    await payOrder(placed.sessionId);
    expect((await refund({ orderId: placed.orderId, reason: "Melted in transit" })).status).toBe(200);

    const checked = await readJson<DiscountJson>(await callFunction("validate-discount-code", { code: "WELCOME10", email }));
    expect(checked.valid).toBe(false);
    const again = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
    expect(again.status).toBe(400);
    expect((await readJson<ErrorJson>(again)).error).toMatch(/first-time customers only/);
  });

  it("a refunded order's status no longer moves: its customer must not be told it is on its way", async () => {
    const { orderId } = await paidOrder();
    await refund({ orderId, reason: "Melted in transit" });
    const response = await callFunction("update-order-status", { orderId, newStatus: "shipped" }, { cookie: owner.cookie });
    expect(response.status).toBe(409);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "This order was refunded, so it is no longer fulfilled." });
    expect((await orderRow(orderId)).status).toBe("pending");
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-shipped" } })).toBe(0);
  });
});

describe("refund-order: when Stripe's answer does not come", () => {
  const FORWARDED = "X-Test-Forwarded";

  /**
   * Stripe makes the refund (the stand-in, with the request's idempotency
   * key) but answers each try only once the shop has stopped waiting
   * (STRIPE_TIMEOUT_MS, 400 ms in the tests): a slow Stripe.
   */
  function stripeAnswersTooLate() {
    server.use(
      http.post(STRIPE_REFUNDS, async ({ request }) => {
        if (request.headers.has(FORWARDED)) return undefined;
        const headers = new Headers(request.headers);
        headers.set(FORWARDED, "yes");
        const answer = await fetch(STRIPE_REFUNDS, { method: "POST", headers, body: await request.text() });
        await new Promise((resolve) => request.signal.addEventListener("abort", resolve, { once: true }));
        return answer;
      }),
    );
  }

  /** Stripe cannot be reached at all: the request never arrives, nothing is refunded. */
  const stripeUnreachable = () => server.use(http.post(STRIPE_REFUNDS, () => HttpResponse.error()));

  const PENDING_AFTER_TIMEOUT = (orderId: string) =>
    `Stripe did not answer in time, so it is not known yet whether $40.00 of order ${orderId.slice(0, 8)} was refunded. ` +
    "The shop keeps checking with Stripe (it can never refund twice) and records the refund, and emails the customer, as soon as Stripe confirms it.";
  const STILL_PENDING = (orderId: string) =>
    `A refund of order ${orderId.slice(0, 8)} is already pending: the shop is checking with Stripe and records it as soon as Stripe confirms it. Nothing more to do.`;

  type PendingJson = RefundJson & { pending?: boolean };

  // The checker settles every pending refund of the database: none is left for the next test.
  afterEach(async () => {
    server.resetHandlers();
    await settlePendingRefunds();
  });

  const shownOrder = async (orderId: string) =>
    (await readJson<{ order: MaskedOrderWithHistory }>(await callFunction("get-order", { orderId }, { cookie: staff.cookie }))).order;
  const listedOrder = async (orderId: string) =>
    (await readJson<{ orders: MaskedOrder[] }>(await callFunction("get-orders", { pageSize: 100 }, { cookie: owner.cookie }))).orders.find(
      (row) => row.id === orderId,
    );

  it("Stripe refunds but answers too late: 202, the order shows the refund pending, and the checker settles it with one refund, one email and one record", async () => {
    const { orderId, email, paymentIntentId, totalCents } = await paidOrder();
    stripeAnswersTooLate();
    const response = await refund({ orderId, reason: "Melted in transit" });
    expect(response.status).toBe(202);
    expect(await readJson<PendingJson>(response)).toEqual({ message: PENDING_AFTER_TIMEOUT(orderId), alreadyRefunded: false, pending: true });
    // Stripe did refund; the shop does not know it yet and says nothing to the customer.
    expect(stripeMock.refunds()).toHaveLength(1);
    const pending = await orderRow(orderId);
    expect(pending).toMatchObject({
      paymentStatus: "paid",
      refundRequestedBy: owner.email,
      refundReason: "Melted in transit",
      stripeRefundId: null,
      refundedAt: null,
    });
    expect(pending.refundRequestedAt).toBeInstanceOf(Date);
    expect(await refundEmails(orderId)).toEqual([]);
    expect(await auditTrail("order", orderId)).toEqual([]);

    // The operators see it pending, on the order and in the list.
    const refundPending = { requested_by: owner.email, requested_at: pending.refundRequestedAt!.toISOString(), reason: "Melted in transit" };
    expect(await shownOrder(orderId)).toMatchObject({ payment_status: "paid", refund: null, refund_pending: refundPending });
    expect(await listedOrder(orderId)).toMatchObject({ payment_status: "paid", refund_pending: refundPending });

    server.resetHandlers();
    expect(await settlePendingRefunds()).toBe(1);
    const [made] = stripeMock.refunds();
    expect(stripeMock.refunds()).toHaveLength(1);
    expect(new Set(refundCalls().map((call) => call.idempotencyKey))).toEqual(new Set([`refund-${orderId}`]));
    expect(refundCalls().every((call) => call.body.payment_intent === paymentIntentId)).toBe(true);
    expect(await orderRow(orderId)).toMatchObject({
      paymentStatus: "refunded",
      stripeRefundId: made!.id,
      refundedCents: totalCents,
      refundReason: "Melted in transit",
      refundedBy: owner.email,
      refundRequestedAt: null,
      refundRequestedBy: null,
    });
    const emails = await refundEmails(orderId);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: email });
    expect(await auditTrail("order", orderId)).toEqual([
      expect.objectContaining({
        actorEmail: owner.email,
        action: "order.refund",
        after: expect.objectContaining({ refundId: made!.id, reason: "Melted in transit" }),
      }),
    ]);
    expect(await shownOrder(orderId)).toMatchObject({ payment_status: "refunded", refund_pending: null, refund: { refunded_by: owner.email } });

    // Settled: the next pass asks Stripe nothing.
    const calls = refundCalls().length;
    expect(await settlePendingRefunds()).toBe(0);
    expect(refundCalls()).toHaveLength(calls);
  });

  it("while a refund is pending, the owner's second try asks Stripe nothing and answers that it is pending", async () => {
    const { orderId } = await paidOrder();
    stripeAnswersTooLate();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(202);
    const calls = refundCalls().length;

    server.resetHandlers();
    const again = await refund({ orderId, reason: "Clicked again" });
    expect(again.status).toBe(202);
    expect(await readJson<PendingJson>(again)).toEqual({ message: STILL_PENDING(orderId), alreadyRefunded: false, pending: true });
    expect(refundCalls()).toHaveLength(calls);
    expect(stripeMock.refunds()).toHaveLength(1);
    // The first request stands: its reason, its operator.
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "paid", refundReason: "Melted in transit", refundRequestedBy: owner.email });
    expect(await refundEmails(orderId)).toEqual([]);
  });

  it("the connection to Stripe drops before the request arrives: 202 pending, and the checker makes the refund, once", async () => {
    const { orderId, totalCents } = await paidOrder();
    stripeUnreachable();
    const response = await refund({ orderId, reason: "Melted in transit" });
    expect(response.status).toBe(202);
    expect(await readJson<PendingJson>(response)).toMatchObject({ pending: true });
    expect(stripeMock.refunds()).toEqual([]);

    server.resetHandlers();
    expect(await settlePendingRefunds()).toBe(1);
    expect(stripeMock.refunds()).toEqual([expect.objectContaining({ amount: totalCents })]);
    expect(refundCalls().map((call) => call.idempotencyKey)).toEqual([`refund-${orderId}`]);
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "refunded", refundedBy: owner.email, refundRequestedAt: null });
    expect(await refundEmails(orderId)).toHaveLength(1);
  });

  it("Stripe still does not answer, or answers 500: the refund stays pending for the next pass", async () => {
    const { orderId } = await paidOrder();
    stripeUnreachable();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(202);

    expect(await settlePendingRefunds()).toBe(0);
    server.resetHandlers();
    server.use(http.post(STRIPE_REFUNDS, () => HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 })));
    expect(await settlePendingRefunds()).toBe(0);
    const still = await orderRow(orderId);
    expect(still).toMatchObject({ paymentStatus: "paid", refundRequestedBy: owner.email, refundReason: "Melted in transit" });
    expect(still.refundRequestedAt).toBeInstanceOf(Date);
    expect(await auditTrail("order", orderId)).toEqual([]);

    server.resetHandlers();
    expect(await settlePendingRefunds()).toBe(1);
    expect((await orderRow(orderId)).paymentStatus).toBe("refunded");
    expect(stripeMock.refunds()).toHaveLength(1);
  });

  it("Stripe refuses when asked again: the request ends, the order stays paid, and its record says why; the owner may try again", async () => {
    const { orderId } = await paidOrder();
    stripeUnreachable();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(202);
    const requestedAt = (await orderRow(orderId)).refundRequestedAt!;

    server.resetHandlers();
    server.use(
      http.post(STRIPE_REFUNDS, () =>
        HttpResponse.json(
          { error: { type: "invalid_request_error", code: "charge_disputed", message: "Charge ch_test_1 has been charged back; refunds are not possible." } },
          { status: 400 },
        ),
      ),
    );
    expect(await settlePendingRefunds()).toBe(1);
    expect(await orderRow(orderId)).toMatchObject({
      paymentStatus: "paid",
      refundRequestedAt: null,
      refundRequestedBy: null,
      refundReason: null,
      stripeRefundId: null,
    });
    expect(await refundEmails(orderId)).toEqual([]);
    expect(stripeMock.refunds()).toEqual([]);
    expect(await auditTrail("order", orderId)).toEqual([
      {
        actorEmail: "Stripe",
        action: "order.refund-refused",
        at: expect.any(String),
        before: { refundRequestedAt: requestedAt.toISOString(), refundRequestedBy: owner.email, refundReason: "Melted in transit" },
        after: { refused: { code: "charge_disputed", message: "Charge ch_test_1 has been charged back; refunds are not possible." } },
      },
    ]);
    const shown = await shownOrder(orderId);
    expect(shown).toMatchObject({ payment_status: "paid", refund_pending: null, refund: null });
    expect(shown.refund_refusals).toEqual([
      {
        requested_by: owner.email,
        reason: "Melted in transit",
        refusal: "Charge ch_test_1 has been charged back; refunds are not possible. (charge_disputed)",
        refused_at: expect.any(String),
      },
    ]);
    // Nothing left to check; the owner's next try is a new request.
    expect(await settlePendingRefunds()).toBe(0);
    server.resetHandlers();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(200);
    expect((await orderRow(orderId)).paymentStatus).toBe("refunded");
    expect(await refundEmails(orderId)).toHaveLength(1);
  });

  it("Stripe's charge.refunded notice settles a pending refund: the owner's, with the owner's reason, one email", async () => {
    const { orderId, paymentIntentId, totalCents } = await paidOrder();
    stripeAnswersTooLate();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(202);
    const [made] = stripeMock.refunds();

    expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: totalCents, refundId: made!.id }))).status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({
      paymentStatus: "refunded",
      stripeRefundId: made!.id,
      refundReason: "Melted in transit",
      refundedBy: owner.email,
      refundRequestedAt: null,
    });
    expect(await refundEmails(orderId)).toHaveLength(1);
    expect(await auditTrail("order", orderId)).toHaveLength(1);
    // Nothing left for the checker.
    server.resetHandlers();
    const calls = refundCalls().length;
    expect(await settlePendingRefunds()).toBe(0);
    expect(refundCalls()).toHaveLength(calls);
  });

  it("the testers' trigger (an email with +stripe-slow-refund@): the stand-in refunds but answers too late, then the checker finds the refund", async () => {
    const { orderId } = await orderFor({ email: `tester-${randomUUID().slice(0, 8)}${STRIPE_SLOW_REFUND_TAG}example.com` });
    const response = await refund({ orderId, reason: "Melted in transit" });
    expect(response.status).toBe(202);
    expect(await readJson<PendingJson>(response)).toEqual({ message: PENDING_AFTER_TIMEOUT(orderId), alreadyRefunded: false, pending: true });
    expect(stripeMock.refunds()).toHaveLength(1);

    expect(await settlePendingRefunds()).toBe(1);
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "refunded", stripeRefundId: stripeMock.refunds()[0]!.id, refundRequestedAt: null });
    expect(stripeMock.refunds()).toHaveLength(1);
    expect(await refundEmails(orderId)).toHaveLength(1);
  });

  it("two instances settling at once: one refund, one email, one record", async () => {
    const { orderId } = await paidOrder();
    stripeAnswersTooLate();
    expect((await refund({ orderId, reason: "Melted in transit" })).status).toBe(202);

    server.resetHandlers();
    const settled = await Promise.all([settlePendingRefunds(), settlePendingRefunds()]);
    expect(settled.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect((await orderRow(orderId)).paymentStatus).toBe("refunded");
    expect(stripeMock.refunds()).toHaveLength(1);
    expect(await refundEmails(orderId)).toHaveLength(1);
    expect(await auditTrail("order", orderId)).toHaveLength(1);
  });
});

describe("charge.refunded: refunds made at Stripe", () => {
  it("a refund made in Stripe's dashboard marks the order refunded and emails once, however often the event comes", async () => {
    const { orderId, paymentIntentId, totalCents } = await paidOrder();
    const payload = chargeRefunded(paymentIntentId, { amount: totalCents, refundId: "re_test_dashboard" });

    const first = await deliverStripeEvent(payload);
    expect(first.status).toBe(200);
    expect(await readJson<WebhookJson>(first)).toEqual({ received: true });
    expect(await readJson<WebhookJson>(await deliverStripeEvent(payload))).toEqual({ received: true, duplicate: true });
    // Stripe may also send another event about the same refunded charge.
    expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: totalCents }))).status).toBe(200);

    expect(await orderRow(orderId)).toMatchObject({
      paymentStatus: "refunded",
      stripeRefundId: "re_test_dashboard",
      refundedCents: totalCents,
      refundReason: null,
      refundedBy: "Stripe",
    });
    expect(await refundEmails(orderId)).toHaveLength(1);
    expect(await auditTrail("order", orderId)).toEqual([expect.objectContaining({ actorEmail: "Stripe", action: "order.refund" })]);
    // And the owner's button now just says so, without asking Stripe.
    expect(await readJson<RefundJson>(await refund({ orderId, reason: "Melted in transit" }))).toMatchObject({ alreadyRefunded: true });
    expect(refundCalls()).toEqual([]);
  });

  it("the webhook of the owner's own refund sends no second email and keeps the owner's reason", async () => {
    const { orderId, paymentIntentId, totalCents } = await paidOrder();
    await refund({ orderId, reason: "Melted in transit" });
    const [made] = stripeMock.refunds();
    expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: totalCents, refundId: made!.id }))).status).toBe(200);

    expect(await orderRow(orderId)).toMatchObject({
      paymentStatus: "refunded",
      stripeRefundId: made!.id,
      refundReason: "Melted in transit",
      refundedBy: owner.email,
    });
    expect(await refundEmails(orderId)).toHaveLength(1);
    expect(await auditTrail("order", orderId)).toHaveLength(1);
  });

  it("the webhook arriving while the owner's refund is still being written: one email, and the owner's reason is added", async () => {
    const { orderId, paymentIntentId, totalCents } = await paidOrder();
    // Stripe makes the refund and its webhook beats the shop's own answer.
    server.use(
      http.post(STRIPE_REFUNDS, async () => {
        const refundId = "re_test_raced";
        expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: totalCents, refundId }))).status).toBe(200);
        return HttpResponse.json({ id: refundId, object: "refund", amount: totalCents, currency: "usd", payment_intent: paymentIntentId, status: "succeeded" });
      }),
    );
    const response = await refund({ orderId, reason: "Melted in transit" });
    expect(response.status).toBe(200);
    expect(await readJson<RefundJson>(response)).toMatchObject({ alreadyRefunded: true });

    expect(await orderRow(orderId)).toMatchObject({
      paymentStatus: "refunded",
      stripeRefundId: "re_test_raced",
      refundReason: "Melted in transit",
      refundedBy: owner.email,
    });
    expect(await refundEmails(orderId)).toHaveLength(1);
    expect((await auditTrail("order", orderId)).map((entry) => entry.actorEmail)).toEqual([owner.email, "Stripe"]);
  });

  it("a refund of a payment that is not the shop's changes nothing", async () => {
    const { orderId } = await paidOrder();
    expect((await deliverStripeEvent(chargeRefunded("pi_test_someone_else", { amount: 3000 }))).status).toBe(200);
    await expectUnrefunded(orderId);
  });

  it("answers 400 to a charge.refunded without its PaymentIntent", async () => {
    const { orderId, paymentIntentId, totalCents } = await paidOrder();
    const payload = chargeRefunded(paymentIntentId, { amount: totalCents }).replace(`"payment_intent":"${paymentIntentId}",`, "");
    expect((await deliverStripeEvent(payload)).status).toBe(400);
    await expectUnrefunded(orderId);
  });
});
