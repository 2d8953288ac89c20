import { randomUUID } from "node:crypto";
import { http } from "msw";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { action as payPageAction, loader as payPageLoader } from "../../mocks/payment-page";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import {
  SHOP_ORIGIN,
  callFunction,
  deliverStripeEvent,
  formRequest,
  orderFor,
  placeOrder,
  readJson,
  signedInAdmin,
  stripeSessionEvent,
  type ErrorJson,
  type VerifyJson,
  callRoute,
} from "../utils";

/**
 * A 100% discount code on a cart of $50 or more (free shipping) makes a $0
 * order. Stripe Checkout takes no card for it: the completed session says
 * payment_status "no_payment_required" and has no PaymentIntent. The shop
 * confirms such an order as it confirms a paid one (webhook and
 * verify-payment), and refuses to refund the money it never took (decision 025).
 */

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let code: string;

beforeAll(async () => {
  owner = await signedInAdmin("owner", "owner");
});
beforeEach(async () => {
  code = `FREE-${randomUUID().slice(0, 6).toUpperCase()}`;
  const saved = await callFunction(
    "save-discount-code",
    { code, percentOff: 100, description: "On the house", active: true, firstOrderOnly: false, usageLimit: null, expiresAt: null },
    { cookie: owner.cookie },
  );
  expect(saved.status).toBe(200);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Five Mini Bites ($50: free shipping) with the 100% code: a $0 order, placed and its payment page open. */
async function freeOrder() {
  const placed = await placeOrder([["bites-variety", 5]], { discountCode: code });
  const order = await db.order.findUniqueOrThrow({ where: { id: placed.orderId } });
  expect({ subtotal: order.subtotalCents, discount: order.discountCents, shipping: order.shippingCents, total: order.totalCents }).toEqual({
    subtotal: 5000,
    discount: 5000,
    shipping: 0,
    total: 0,
  });
  expect(await stripeMock.session(placed.sessionId)).toMatchObject({ amount_total: 0, status: "open", payment_status: "unpaid" });
  return placed;
}

const orderRow = (orderId: string) => db.order.findUniqueOrThrow({ where: { id: orderId } });
const confirmations = (orderId: string) => db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } });

describe("a $0 order completed on Stripe's page", () => {
  it("the stand-in completes it as Stripe does: no_payment_required and no PaymentIntent", async () => {
    const { sessionId } = await freeOrder();
    expect(await stripeMock.pay(sessionId)).toMatchObject({ status: "complete", payment_status: "no_payment_required", payment_intent: null });
  });

  it("verify-payment confirms it once: paid, the confirmation and the kitchen's emails, the code's use counted", async () => {
    const { orderId, sessionId } = await freeOrder();
    await stripeMock.pay(sessionId);
    const response = await callFunction("verify-payment", { sessionId });
    expect(await readJson<VerifyJson>(response)).toEqual({ verified: true, orderId });
    expect(await callFunction("verify-payment", { sessionId }).then((again) => readJson<VerifyJson>(again))).toEqual({ verified: true, orderId });

    const order = await orderRow(orderId);
    expect(order).toMatchObject({ paymentStatus: "paid", paymentIntentId: null });
    expect(order.paidAt).toBeInstanceOf(Date);
    expect(await confirmations(orderId)).toBe(1);
    // It took no money, and its confirmation does not claim a payment.
    const confirmation = await db.outboxMessage.findFirstOrThrow({ where: { orderId, kind: "order-confirmation" } });
    expect(confirmation.text).toContain("It's on the house and our kitchen is on it.");
    expect(`${confirmation.text}${confirmation.html}`).not.toMatch(/have your payment/i);
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-fulfilment" } })).toBe(1);
    const { codes } = await readJson<{ codes: { code: string; uses: number; reserved: number }[] }>(
      await callFunction("get-discount-codes", {}, { cookie: owner.cookie }),
    );
    expect(codes.find((row) => row.code === code)).toMatchObject({ uses: 1, reserved: 0 });
  });

  it("the webhook's checkout.session.completed confirms it too, once however often it comes", async () => {
    const { orderId, sessionId } = await freeOrder();
    const completed = await stripeMock.pay(sessionId);
    const payload = stripeSessionEvent("checkout.session.completed", completed!);
    expect((await deliverStripeEvent(payload)).status).toBe(200);
    expect((await deliverStripeEvent(payload)).status).toBe(200);
    expect((await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", completed!))).status).toBe(200);
    expect((await orderRow(orderId)).paymentStatus).toBe("paid");
    expect(await confirmations(orderId)).toBe(1);
  });

  it("the stand-in's payment page asks for no card, completes the session and tells the shop through the signed webhook", async () => {
    const { orderId, sessionId } = await freeOrder();
    // The page answers only in the demo; its webhook reaches this test's shop.
    const mocks = env.MOCKS;
    env.MOCKS = true;
    server.use(
      http.post(`${SHOP_ORIGIN}/webhooks/stripe`, async ({ request }) =>
        deliverStripeEvent(await request.text(), { signature: request.headers.get("Stripe-Signature") }),
      ),
    );
    try {
      const pageUrl = `${SHOP_ORIGIN}/mock-stripe/pay/${sessionId}`;
      const context = { clientAddress: "203.0.113.9" };
      const page = await callRoute(payPageLoader, new Request(pageUrl), { params: { sessionId }, ...context });
      expect(await page.json()).toMatchObject({ total: 0, discount: 5000, open: true, needsCard: false });

      const completed = await payPageAction({ request: formRequest(pageUrl, {}), params: { sessionId }, context });
      expect(completed).toHaveRedirect(`${SHOP_ORIGIN}/order-success?session_id=${sessionId}`);
    } finally {
      env.MOCKS = mocks;
    }
    expect(await stripeMock.session(sessionId)).toMatchObject({ status: "complete", payment_status: "no_payment_required", payment_intent: null });
    expect((await orderRow(orderId)).paymentStatus).toBe("paid");
    expect(await confirmations(orderId)).toBe(1);
  });

  it("a page that still costs money still wants the card", async () => {
    const { sessionId } = await placeOrder([["bites-variety", 3]]);
    const mocks = env.MOCKS;
    env.MOCKS = true;
    try {
      const pageUrl = `${SHOP_ORIGIN}/mock-stripe/pay/${sessionId}`;
      const context = { clientAddress: "203.0.113.9" };
      const page = await callRoute(payPageLoader, new Request(pageUrl), { params: { sessionId }, ...context });
      expect(await page.json()).toMatchObject({ total: 4000, needsCard: true });
      const refused = await callRoute(payPageAction, formRequest(pageUrl, {}), { params: { sessionId }, ...context });
      expect(refused.status).toBe(400);
    } finally {
      env.MOCKS = mocks;
    }
    expect(await stripeMock.session(sessionId)).toMatchObject({ status: "open", payment_status: "unpaid" });
  });
});

describe("what is not a completed $0 order stays unpaid", () => {
  it("no_payment_required on a session that costs money (a forged or mistaken event) confirms nothing", async () => {
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]]);
    const session = await stripeMock.session(sessionId);
    const event = stripeSessionEvent("checkout.session.completed", { ...session!, status: "complete", payment_status: "no_payment_required" } as never);
    expect((await deliverStripeEvent(event)).status).toBe(200);
    expect((await orderRow(orderId)).paymentStatus).toBe("unpaid");
    expect(await confirmations(orderId)).toBe(0);
  });

  it("a $0 session not yet completed is not confirmed by verify-payment", async () => {
    const { orderId, sessionId } = await freeOrder();
    // Whatever Stripe calls an open $0 session, it is not an order until the customer completes it.
    await db.mockCheckoutSession.update({ where: { id: sessionId }, data: { paymentStatus: "no_payment_required" } });
    expect(await readJson<VerifyJson>(await callFunction("verify-payment", { sessionId }))).toEqual({ verified: false, orderId });
    expect((await orderRow(orderId)).paymentStatus).toBe("unpaid");
  });
});

describe("refund-order on a $0 order", () => {
  it("answers 409 without asking Stripe anything: no money was taken", async () => {
    const { orderId, sessionId } = await freeOrder();
    await stripeMock.pay(sessionId);
    await callFunction("verify-payment", { sessionId });
    const before = stripeMock.requests.length;

    const response = await callFunction("refund-order", { orderId, reason: "Customer changed their mind" }, { cookie: owner.cookie });
    expect(response.status).toBe(409);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "This order cost the customer nothing ($0.00), so there is no payment to refund." });
    expect(stripeMock.requests.slice(before)).toEqual([]);
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "paid", refundedAt: null });
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-refunded" } })).toBe(0);
  });

  it("a paid order with money taken is still refunded as before", async () => {
    const { orderId } = await orderFor();
    const response = await callFunction("refund-order", { orderId, reason: "Melted in transit" }, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect((await orderRow(orderId)).paymentStatus).toBe("refunded");
  });
});
