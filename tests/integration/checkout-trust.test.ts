import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { db } from "~/utils/db.server";
import {
  callFunction,
  checkoutBody,
  deliverStripeEvent,
  payOrder,
  placeOrder,
  readJson,
  stripeSessionEvent,
  uniqueEmail,
  type CheckoutJson,
  type DiscountJson,
  type ErrorJson,
  type OkJson,
} from "../utils";

/**
 * The rules a customer could try to get around: a first-order code under
 * another spelling of the same mailbox, a usage limit raced by parallel
 * placements, two tabs holding the same first-order code, and the per-product
 * cap split over several lines.
 */

// Closing a replaced checkout or a paid-after-expiry order may log; keep the output quiet.
beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const random = () => randomUUID().replace(/-/g, "").slice(0, 10);

async function sessionOf(sessionId: string) {
  const session = await stripeMock.session(sessionId);
  if (!session) throw new Error(`The Stripe stand-in has no session ${sessionId}`);
  return session;
}

async function createLimitedCode(usageLimit = 1) {
  const code = `LIMIT1-${random().toUpperCase()}`;
  await db.discountCode.create({ data: { code, kind: "percent", terms: { basisPoints: 1000 }, description: "Test", usageLimit } });
  return code;
}

async function usesHeld(code: string) {
  return (await db.discountCode.findUniqueOrThrow({ where: { code } })).usesHeld;
}

describe("first-order codes compare the canonical mailbox", () => {
  /** A Gmail address with a paid WELCOME10 order, and other spellings of the same mailbox. */
  async function paidGmailCustomer() {
    const letters = random();
    const base = `x.y${letters}@gmail.com`;
    const { sessionId } = await placeOrder([["bites-variety", 3]], { email: base, discountCode: "WELCOME10" });
    await payOrder(sessionId);
    const variants = [`x.y${letters}+2@gmail.com`, `xy${letters}@gmail.com`, `x.y${letters}@googlemail.com`, `X.Y${letters.toUpperCase()}@GMAIL.COM.`];
    return { base, mailbox: `xy${letters}@gmail.com`, variants };
  }

  it("refuses WELCOME10 to every spelling of a mailbox that has a paid order", async () => {
    const { mailbox, variants } = await paidGmailCustomer();

    for (const email of variants) {
      const response = await callFunction("validate-discount-code", { code: "WELCOME10", email });
      expect(response.status, email).toBe(200);
      const body = await readJson<DiscountJson>(response);
      expect(body, email).toMatchObject({ valid: false, discount: 0 });
      expect(body.error, email).toMatch(/first-time customers/);

      const ordersBefore = await db.order.count({ where: { email } });
      const checkout = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
      expect(checkout.status, email).toBe(400);
      expect((await readJson<ErrorJson>(checkout)).error, email).toMatch(/first-time customers/);
      expect(await db.order.count({ where: { email } }), email).toBe(ordersBefore);
    }
    // Only the one paid order ever reached this mailbox.
    expect(await db.order.count({ where: { mailbox } })).toBe(1);
  });

  it("refuses malformed spellings of that mailbox as invalid emails, and writes no order", async () => {
    const { base } = await paidGmailCustomer();
    const before = await db.order.count();

    // A NUL never gets as far as the email rule: the body is refused as it is read (decision 046).
    const spellings: [email: string, codeError: RegExp, checkoutError: RegExp][] = [
      [`${base},x`, /email/i, /shipping\.email/],
      [`x\u0000${base}`, /characters we cannot accept/, /characters we cannot accept/],
    ];
    for (const [email, codeError, checkoutError] of spellings) {
      const response = await callFunction("validate-discount-code", { code: "WELCOME10", email });
      expect(response.status, JSON.stringify(email)).toBe(400);
      expect((await readJson<ErrorJson>(response)).error, JSON.stringify(email)).toMatch(codeError);

      const checkout = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
      expect(checkout.status, JSON.stringify(email)).toBe(400);
      expect((await readJson<ErrorJson>(checkout)).error, JSON.stringify(email)).toMatch(checkoutError);
    }
    expect(await db.order.count()).toBe(before);
  });

  it("signs one mailbox up to the newsletter once, however it is spelled", async () => {
    const letters = random();
    const base = `x.y${letters}@gmail.com`;
    const spellings = [base, `x.y${letters}+news@gmail.com`, `xy${letters}@gmail.com`];

    for (const email of spellings) {
      const response = await callFunction("send-welcome-email", { email });
      expect(response.status, email).toBe(200);
      expect(await readJson<OkJson>(response), email).toMatchObject({ ok: true });
    }

    const subscribers = await db.subscriber.findMany({ where: { mailbox: `xy${letters}@gmail.com` } });
    expect(subscribers).toHaveLength(1);
    expect(subscribers[0]?.email).toBe(base);
    expect(await db.outboxMessage.count({ where: { kind: "newsletter-welcome", to: { in: spellings } } })).toBe(1);
  });
});

describe("a usage limit cannot be beaten by parallel placements", () => {
  it("lets exactly one of 5 parallel checkouts hold a code with usageLimit 1, and gives the use back when its session expires", async () => {
    const code = await createLimitedCode(1);

    const bodies = Array.from({ length: 5 }, () => checkoutBody([["bites-variety", 3]], { email: uniqueEmail("limit"), discountCode: code }));
    const responses = await Promise.all(bodies.map((body) => callFunction("simple-checkout", body)));
    const statuses = responses.map((response) => response.status);

    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(
      statuses.filter((status) => status === 409),
      `statuses: ${statuses.join(", ")}`,
    ).toHaveLength(4);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect((await readJson<ErrorJson>(response)).error).toMatch(/has already been used as often as it can be/);
    }

    const held = await db.order.findMany({ where: { discountCode: code } });
    expect(held).toHaveLength(1);
    expect(await usesHeld(code)).toBe(1);

    const winner = responses[statuses.indexOf(200)]!;
    const { orderId } = await readJson<CheckoutJson>(winner);
    expect(held[0]?.id).toBe(orderId);
    const sessionId = held[0]?.stripeSessionId;
    if (!sessionId) throw new Error(`Order ${orderId} has no Checkout Session`);

    // Stripe expires the payment page and tells the shop.
    expect(await stripeMock.timeOut(sessionId)).toMatchObject({ status: "expired" });
    const delivered = await deliverStripeEvent(
      stripeSessionEvent("checkout.session.expired", { id: sessionId, object: "checkout.session", metadata: { orderId }, status: "expired" }),
    );
    expect(delivered.status).toBe(200);

    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("expired");
    expect(await usesHeld(code)).toBe(0);

    const again = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email: uniqueEmail("limit-again"), discountCode: code }));
    expect(again.status).toBe(200);
    const { orderId: againId } = await readJson<CheckoutJson>(again);
    expect(await db.order.findUniqueOrThrow({ where: { id: againId } })).toMatchObject({ paymentStatus: "unpaid", discountCode: code });
    expect(await usesHeld(code)).toBe(1);
  });

  it("refuses a code with usageLimit 1 once it was placed and paid", async () => {
    const code = await createLimitedCode(1);
    const { sessionId } = await placeOrder([["bites-variety", 3]], { email: uniqueEmail("limit-paid"), discountCode: code });
    await payOrder(sessionId);
    expect(await usesHeld(code)).toBe(1);

    const validated = await callFunction("validate-discount-code", { code, email: uniqueEmail("limit-next") });
    expect(validated.status).toBe(200);
    const body = await readJson<DiscountJson>(validated);
    expect(body).toMatchObject({ valid: false, discount: 0 });
    expect(body.error).toMatch(/has already been used as often as it can be/);

    const email = uniqueEmail("limit-next");
    const response = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: code }));
    expect([400, 409]).toContain(response.status);
    expect((await readJson<ErrorJson>(response)).error).toMatch(/has already been used as often as it can be/);
    expect(await db.order.count({ where: { email } })).toBe(0);
    expect(await db.order.count({ where: { discountCode: code } })).toBe(1);
    expect(await usesHeld(code)).toBe(1);
  });
});

describe("two tabs with the same first-order code", () => {
  it("a second placement replaces the first: the first is cancelled, its payment page closed, its claim released", async () => {
    const email = uniqueEmail("tabs");
    const first = await placeOrder([["bites-variety", 3]], { email, discountCode: "WELCOME10" });
    const second = await placeOrder([["bites-variety", 3]], { email, discountCode: "WELCOME10" });

    expect(await db.order.findUniqueOrThrow({ where: { id: first.orderId } })).toMatchObject({ paymentStatus: "cancelled", firstOrderClaim: null });
    expect((await sessionOf(first.sessionId)).status).toBe("expired");

    const survivor = await db.order.findUniqueOrThrow({ where: { id: second.orderId } });
    expect(survivor).toMatchObject({ paymentStatus: "unpaid", discountCode: "WELCOME10", stripeSessionId: second.sessionId });
    expect(survivor.firstOrderClaim).toBe(`WELCOME10:${survivor.mailbox}`);
    expect((await sessionOf(second.sessionId)).status).toBe("open");
  });

  it("two parallel placements leave at most one unpaid order holding the code, and once it is paid the code is refused", async () => {
    const email = uniqueEmail("parallel-tabs");
    const bodies = [0, 1].map(() => checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
    const responses = await Promise.all(bodies.map((body) => callFunction("simple-checkout", body)));
    for (const response of responses) expect([200, 409]).toContain(response.status);

    const orders = await db.order.findMany({ where: { email } });
    expect(orders.length).toBeGreaterThanOrEqual(1);
    const mailbox = orders[0]!.mailbox;
    expect(await db.order.count({ where: { mailbox, paymentStatus: "unpaid", discountCode: "WELCOME10" } })).toBe(1);
    const survivor = orders.find((order) => order.paymentStatus === "unpaid")!;
    for (const order of orders.filter((o) => o.id !== survivor.id)) {
      expect(order, order.id).toMatchObject({ paymentStatus: "cancelled", firstOrderClaim: null });
      if (order.stripeSessionId) expect((await sessionOf(order.stripeSessionId)).status).toBe("expired");
    }
    expect(survivor.firstOrderClaim).toBe(`WELCOME10:${mailbox}`);
    if (!survivor.stripeSessionId) throw new Error(`The surviving order ${survivor.id} has no Checkout Session`);

    await payOrder(survivor.stripeSessionId);
    const before = await db.order.count({ where: { email } });
    const again = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
    expect([400, 409]).toContain(again.status);
    expect((await readJson<ErrorJson>(again)).error).toMatch(/first-time customers/);
    expect(await db.order.count({ where: { email } })).toBe(before);
    expect(await db.order.count({ where: { mailbox, paymentStatus: "paid", discountCode: "WELCOME10" } })).toBe(1);
  });
});

describe("duplicate lines merge before the 99 cap", () => {
  it("refuses 99 + 99 of one product with 400, and writes no order", async () => {
    const email = uniqueEmail("cap");
    const body = {
      ...checkoutBody([], { email }),
      items: [
        { product: { id: "bar-chocolate-pb" }, quantity: 99 },
        { product: { id: "bar-chocolate-pb" }, quantity: 99 },
      ],
    };
    const before = await db.order.count();
    const response = await callFunction("simple-checkout", body);
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toContain("up to 99");
    expect(await db.order.count()).toBe(before);
    expect(await db.order.count({ where: { email } })).toBe(0);
  });

  it("accepts 60 + 39 of one product as one line of 99", async () => {
    const response = await callFunction(
      "simple-checkout",
      checkoutBody([
        ["bar-chocolate-pb", 60],
        ["bar-chocolate-pb", 39],
      ]),
    );
    expect(response.status).toBe(200);
    const { orderId } = await readJson<CheckoutJson>(response);
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    expect(order.items).toEqual([expect.objectContaining({ productId: "bar-chocolate-pb", quantity: 99, unitPriceCents: 600 })]);
    expect(order.subtotalCents).toBe(99 * 600);
  });
});
