import { delay, http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import zipcodes from "zipcodes";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { db } from "~/utils/db.server";
import { distanceMiles } from "~/models/delivery.server";
import { shopSettings } from "~/models/catalog.server";
import { markOrderPaid } from "~/models/orders.server";
import { changeCatalog } from "~/models/catalog.server";
import { catalogue } from "../../prisma/catalogue";
import {
  callFunction,
  checkoutBody,
  placeOrder,
  readJson,
  shipping,
  uniqueEmail,
  type CheckoutJson,
  type DiscountJson,
  type ErrorJson,
  type VerifyJson,
} from "../utils";

const STRIPE_SESSIONS = "https://api.stripe.com/v1/checkout/sessions";
const CHECKOUT_ERROR = "There was an error processing your order. Please try again.";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Silences console.error for a test that expects a logged failure, and returns what was logged. */
function captureErrorLog() {
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  return () => spy.mock.calls.map((args) => args.map(String).join(" ")).join("\n");
}

async function orderCount() {
  return db.order.count();
}

function sessionCreateRequests() {
  return stripeMock.requests.filter((request) => request.method === "POST" && request.path === "/v1/checkout/sessions");
}

describe("validate-discount-code", () => {
  it("accepts WELCOME10 for an email with no paid order: 10% off", async () => {
    const response = await callFunction("validate-discount-code", { code: "WELCOME10", email: uniqueEmail() });
    expect(response.status).toBe(200);
    expect(await readJson<DiscountJson>(response)).toMatchObject({
      valid: true,
      discount: 0.1,
      description: expect.any(String),
      error: null,
    });
  });

  it("accepts the code in lower case and with spaces around it", async () => {
    for (const code of ["welcome10", "  WELCOME10  ", " Welcome10\t"]) {
      const body = await readJson<DiscountJson>(await callFunction("validate-discount-code", { code, email: uniqueEmail() }));
      expect(body, code).toMatchObject({ valid: true, code: "WELCOME10", discount: 0.1 });
    }
  });

  it("answers 200 { valid: false, error } for an unknown code", async () => {
    const response = await callFunction("validate-discount-code", { code: "FREESTUFF", email: uniqueEmail() });
    expect(response.status).toBe(200);
    const body = await readJson<DiscountJson>(response);
    expect(body).toMatchObject({ valid: false, discount: 0, description: null });
    expect(body.error).toMatch(/FREESTUFF.*not a valid discount code/);
  });

  it("answers { valid: false } for an empty code", async () => {
    for (const code of ["", "   "]) {
      const response = await callFunction("validate-discount-code", { code, email: uniqueEmail() });
      expect(response.status).toBe(200);
      expect(await readJson<DiscountJson>(response)).toMatchObject({ valid: false, error: expect.any(String) });
    }
  });

  it("answers 400 with an error for an invalid email", async () => {
    for (const email of ["not-an-email", "a@b", "two words@example.com", ""]) {
      const response = await callFunction("validate-discount-code", { code: "WELCOME10", email });
      expect(response.status, email).toBe(400);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.stringMatching(/email/i) });
    }
  });

  it("answers 400 when the code or email is missing", async () => {
    for (const body of [{ email: uniqueEmail() }, { code: "WELCOME10" }, {}]) {
      const response = await callFunction("validate-discount-code", body);
      expect(response.status).toBe(400);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.stringContaining("is required"), fieldErrors: expect.any(Object) });
    }
  });

  it("refuses WELCOME10 to an email that already has a paid order (paid through verify-payment)", async () => {
    const email = uniqueEmail("returning");
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]], { email, discountCode: "WELCOME10" });
    await stripeMock.pay(sessionId);
    const verified = await readJson<VerifyJson>(await callFunction("verify-payment", { sessionId }));
    expect(verified).toEqual({ verified: true, orderId });

    // The same person, however they type their address.
    for (const asTyped of [email, email.toUpperCase(), `  ${email}  `]) {
      const response = await callFunction("validate-discount-code", { code: "WELCOME10", email: asTyped });
      expect(response.status).toBe(200);
      const body = await readJson<DiscountJson>(response);
      expect(body, asTyped).toMatchObject({ valid: false, discount: 0 });
      expect(body.error).toMatch(/first-time customers/);
    }
  });

  it("refuses WELCOME10 to an email whose order was marked paid directly", async () => {
    const email = uniqueEmail("returning");
    const { orderId, sessionId } = await placeOrder([["bites-banana", 2]], { email });
    expect(await markOrderPaid(orderId, sessionId)).toBe(true);
    const body = await readJson<DiscountJson>(await callFunction("validate-discount-code", { code: "WELCOME10", email }));
    expect(body.valid).toBe(false);
    expect(body.error).toMatch(/first-time customers/);
  });

  it("still accepts WELCOME10 when the email only has unpaid orders", async () => {
    const email = uniqueEmail("hesitant");
    await placeOrder([["bites-banana", 2]], { email });
    const body = await readJson<DiscountJson>(await callFunction("validate-discount-code", { code: "WELCOME10", email }));
    expect(body.valid).toBe(true);
  });
});

describe("check-secrets", () => {
  it("answers only booleans, never a secret's value", async () => {
    const response = await callFunction("check-secrets", {});
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain("sk_test");
    expect(text).not.toContain("whsec");
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(body)) expect(typeof value, name).toBe("boolean");
    expect(body).toMatchObject({ stripe: true, stripeWebhook: true });
  });
});

describe("simple-checkout", () => {
  describe("places an unpaid order and opens a Stripe Checkout Session for it", () => {
    it("returns { url, orderId } and writes the order with catalogue prices", async () => {
      const body = checkoutBody([
        ["bar-chocolate-pb", 2],
        ["bites-variety", 1],
      ]);
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(200);
      const { url, orderId } = await readJson<CheckoutJson>(response);
      expect(orderId).toEqual(expect.any(String));

      const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
      expect(order).toMatchObject({
        paymentStatus: "unpaid",
        status: "pending",
        paidAt: null,
        email: body.shipping.email,
        zipCode: "90025",
        deliveryZone: "standard",
        subtotalCents: 2200,
        discountCents: 0,
        discountCode: null,
        shippingCents: 1000,
        totalCents: 3200,
      });
      expect(order.items.map((item) => [item.productId, item.quantity, item.unitPriceCents]).sort()).toEqual([
        ["bar-chocolate-pb", 2, 600],
        ["bites-variety", 1, 1000],
      ]);

      const session = await stripeMock.session(order.stripeSessionId ?? "");
      expect(session).not.toBeNull();
      expect(session).toMatchObject({
        amount_total: order.totalCents,
        metadata: { orderId },
        customer_email: body.shipping.email,
        success_url: "http://shop.test/order-success?session_id={CHECKOUT_SESSION_ID}",
        url,
      });
      expect(session?.cancel_url.startsWith("http://shop.test/checkout?cancelled=true")).toBe(true);
    });

    it("creates the session with an Idempotency-Key tied to the order", async () => {
      const { orderId } = await placeOrder();
      const creates = sessionCreateRequests();
      expect(creates).toHaveLength(1);
      expect(creates[0]?.idempotencyKey).toEqual(expect.stringContaining(orderId));
    });

    it("keeps the email as typed and compares its canonical mailbox", async () => {
      const mailbox = uniqueEmail("mixed.case");
      const email = mailbox.replace("@", "+Bars@").toUpperCase();
      const { orderId } = await placeOrder([["bites-variety", 3]], { email });
      const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order.email).toBe(email);
      expect(order.mailbox).toBe(mailbox);
    });
  });

  it("takes names and amounts in cents from the catalogue, never from the client", async () => {
    const body = {
      items: [{ product: { id: "bites-variety", price: 10, priceCents: 1, name: "Free" }, quantity: 3 }],
      shipping: shipping(),
      discountAmount: 0,
      total: 0.03,
    };
    const response = await callFunction("simple-checkout", body);
    expect(response.status).toBe(200);
    const { orderId } = await readJson<CheckoutJson>(response);
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    expect(order).toMatchObject({ subtotalCents: 3000, discountCents: 0, shippingCents: 1000, totalCents: 4000 });
    expect(order.items).toEqual([expect.objectContaining({ productId: "bites-variety", unitPriceCents: 1000, quantity: 3 })]);
    expect(order.items[0]?.name).not.toBe("Free");
    expect((await stripeMock.session(order.stripeSessionId ?? ""))?.amount_total).toBe(4000);
  });

  describe("charges only the prices the client showed (decision 041): any other is refused with 409 and the shop's figures", () => {
    type FiguresJson = ErrorJson & {
      items: { product: { id: string; price: number }; quantity: number }[];
      discountAmount: number;
      subtotal: number;
      shippingCost: number;
      total: number;
    };
    const strawberry = catalogue.find((product) => product.id === "bar-strawberry-pb")!;
    /** An owner's price change: Strawberry Bliss from $6 to $7. */
    const raiseStrawberry = () => changeCatalog((tx) => tx.product.update({ where: { id: strawberry.id }, data: { priceCents: 700 } }));
    afterEach(async () => {
      await changeCatalog((tx) => tx.product.update({ where: { id: strawberry.id }, data: { priceCents: strawberry.priceCents } }));
    });
    const strawberryBody = (price: number, extra: Record<string, unknown> = {}) => ({
      ...checkoutBody([]),
      items: [{ product: { id: "bar-strawberry-pb", name: "Strawberry Bliss", price }, quantity: 5 }],
      discountAmount: 0,
      ...extra,
    });

    it("a unit price that is no longer the catalogue's: no order, no payment page", async () => {
      await raiseStrawberry();
      const body = strawberryBody(6);
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(409);
      expect(await readJson<FiguresJson>(response)).toEqual({
        title: "Total Updated",
        error: "Prices have changed: Strawberry Bliss is now $7.00. Your order total is now $45.00. Please check it and place your order again.",
        items: [{ product: { id: "bar-strawberry-pb", price: 7 }, quantity: 5 }],
        discountAmount: 0,
        subtotal: 35,
        shippingCost: 10,
        total: 45,
        delivery: expect.objectContaining({ isWithinRange: true }),
      });
      expect(await db.order.count({ where: { email: body.shipping.email } })).toBe(0);
      expect(sessionCreateRequests()).toEqual([]);
    });

    it("a price far below the catalogue's", async () => {
      const body = { ...checkoutBody([]), items: [{ product: { id: "bites-variety", price: 0.01 }, quantity: 3 }] };
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(409);
      expect(await readJson<FiguresJson>(response)).toMatchObject({ items: [{ product: { id: "bites-variety", price: 10 }, quantity: 3 }], total: 40 });
      expect(await db.order.count({ where: { email: body.shipping.email } })).toBe(0);
    });

    it("the same product sent twice, once at an old price", async () => {
      await raiseStrawberry();
      const body = {
        ...strawberryBody(7),
        items: [
          { product: { id: "bar-strawberry-pb", price: 7 }, quantity: 2 },
          { product: { id: "bar-strawberry-pb", price: 6 }, quantity: 3 },
        ],
      };
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(409);
      expect((await readJson<FiguresJson>(response)).items).toEqual([
        { product: { id: "bar-strawberry-pb", price: 7 }, quantity: 2 },
        { product: { id: "bar-strawberry-pb", price: 7 }, quantity: 3 },
      ]);
      expect(sessionCreateRequests()).toEqual([]);
    });

    it("a discount amount the client computed differently", async () => {
      const body = { ...checkoutBody([["bites-variety", 3]]), discountAmount: 999 };
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(409);
      expect(await readJson<FiguresJson>(response)).toMatchObject({
        title: "Total Updated",
        error: "Your order total is now $40.00. Please check it and place your order again.",
        items: [{ product: { id: "bites-variety", price: 10 }, quantity: 3 }],
        discountAmount: 0,
        subtotal: 30,
        shippingCost: 10,
        total: 40,
      });
      expect(await db.order.count({ where: { email: body.shipping.email } })).toBe(0);
      expect(sessionCreateRequests()).toEqual([]);
    });

    it("a discount amount sent in cents: the amount is in dollars (requirements §7)", async () => {
      const body = { ...checkoutBody([["bites-variety", 3]], { discountCode: "WELCOME10" }), discountAmount: 300 };
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(409);
      expect(await readJson<FiguresJson>(response)).toMatchObject({ discountAmount: 3, subtotal: 30, total: 37 });
      expect(await db.order.count({ where: { email: body.shipping.email } })).toBe(0);
    });

    it("accepts the prices and discount the shop decides, as before: the payment page asks what the client showed", async () => {
      await raiseStrawberry();
      const body = strawberryBody(7);
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(200);
      const { orderId } = await readJson<CheckoutJson>(response);
      const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
      expect(order).toMatchObject({ subtotalCents: 3500, discountCents: 0, shippingCents: 1000, totalCents: 4500 });
      expect(order.items).toEqual([expect.objectContaining({ productId: "bar-strawberry-pb", unitPriceCents: 700, quantity: 5 })]);
      expect((await stripeMock.session(order.stripeSessionId ?? ""))?.amount_total).toBe(4500);

      const discounted = {
        ...checkoutBody([], { discountCode: "WELCOME10" }),
        items: [{ product: { id: "bites-variety", price: 10 }, quantity: 3 }],
        discountAmount: 3,
      };
      const placed = await callFunction("simple-checkout", discounted);
      expect(placed.status).toBe(200);
      const second = await db.order.findUniqueOrThrow({ where: { id: (await readJson<CheckoutJson>(placed)).orderId } });
      expect(second).toMatchObject({ discountCents: 300, totalCents: 3700 });
    });

    it("refuses a price that is not an amount with 400", async () => {
      const body = { ...checkoutBody([]), items: [{ product: { id: "bites-variety", price: "10" }, quantity: 3 }] };
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(400);
      expect((await readJson<ErrorJson>(response)).error).toMatch(/^items\.0\.product\.price: /);
      expect(sessionCreateRequests()).toEqual([]);
    });
  });

  it("merges repeated lines of the same product", async () => {
    const { orderId } = await placeOrder([
      ["bites-banana", 1],
      ["bites-banana", 2],
    ]);
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    expect(order.items).toEqual([expect.objectContaining({ productId: "bites-banana", quantity: 3 })]);
    expect(order.subtotalCents).toBe(3000);
  });

  describe("WELCOME10 and shipping", () => {
    it("takes 10% off the subtotal and charges $10 shipping under $50: 3000 - 300 + 1000 = 3700", async () => {
      const { orderId, sessionId } = await placeOrder([["bites-variety", 3]], { discountCode: "welcome10" });
      const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order).toMatchObject({
        subtotalCents: 3000,
        discountCents: 300,
        discountCode: "WELCOME10",
        shippingCents: 1000,
        totalCents: 3700,
      });
      const session = await stripeMock.session(sessionId);
      expect(session?.amount_total).toBe(3700);
      expect(session?.total_details).toMatchObject({ amount_discount: 300, amount_shipping: 1000 });
    });

    it("ships free from a $50 subtotal", async () => {
      const { orderId, sessionId } = await placeOrder([["bites-variety", 5]], { discountCode: "WELCOME10" });
      const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order).toMatchObject({ subtotalCents: 5000, discountCents: 500, shippingCents: 0, totalCents: 4500 });
      expect((await stripeMock.session(sessionId))?.amount_total).toBe(4500);
    });

    it("charges shipping just under $50", async () => {
      const { orderId } = await placeOrder([
        ["bites-variety", 4],
        ["bar-banana-pb", 1],
      ]);
      const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order).toMatchObject({ subtotalCents: 4600, shippingCents: 1000, totalCents: 5600 });
    });

    it("refuses WELCOME10 at checkout for a returning customer, and writes no order", async () => {
      const email = uniqueEmail("returning");
      const first = await placeOrder([["bites-variety", 3]], { email });
      await markOrderPaid(first.orderId, first.sessionId);
      const before = await orderCount();

      const response = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
      expect(response.status).toBe(400);
      expect(await readJson<ErrorJson>(response)).toMatchObject({ title: "Invalid Code", error: expect.stringMatching(/first-time customers/) });
      expect(await orderCount()).toBe(before);
    });
    it("lets only the latest of several unpaid WELCOME10 checkouts be paid", async () => {
      const email = uniqueEmail("two-tabs");
      const first = await placeOrder([["bites-variety", 3]], { email, discountCode: "WELCOME10" });
      const second = await placeOrder([["bites-variety", 3]], { email, discountCode: "WELCOME10" });

      expect((await stripeMock.session(first.sessionId))?.status).toBe("expired");
      expect(await db.order.findUniqueOrThrow({ where: { id: first.orderId } })).toMatchObject({ paymentStatus: "cancelled", firstOrderClaim: null });
      expect((await stripeMock.session(second.sessionId))?.status).toBe("open");

      await markOrderPaid(second.orderId, second.sessionId);
      const code = await db.discountCode.findUniqueOrThrow({ where: { code: "WELCOME10" } });
      const paidWithCode = await db.order.count({ where: { email, discountCode: "WELCOME10", paymentStatus: "paid" } });
      expect(paidWithCode).toBe(1);
      expect(code.usesHeld).toBeGreaterThanOrEqual(1);
    });
  });

  describe("refuses orders the shop cannot deliver, in the spec's words, and writes nothing", () => {
    it("a subtotal under the $20 minimum", async () => {
      const before = await orderCount();
      const response = await callFunction("simple-checkout", checkoutBody([["bar-chocolate-pb", 3]]));
      expect(response.status).toBe(400);
      expect(await readJson<ErrorJson>(response)).toMatchObject({
        error: "Minimum order amount is $20.00. Please add $2.00 more to your cart.",
      });
      expect(await orderCount()).toBe(before);
      expect(stripeMock.requests).toEqual([]);
    });

    it("an address outside the 25-mile area (Bakersfield, 93301)", async () => {
      const before = await orderCount();
      const response = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { zipCode: "93301" }));
      expect(response.status).toBe(400);
      const body = await readJson<ErrorJson>(response);
      expect(body.error).toBe("You're outside our 25-mile delivery area. Please contact us directly to arrange delivery.");
      expect(body.title).toBe("Outside Delivery Area");
      expect(await orderCount()).toBe(before);
      expect(stripeMock.requests).toEqual([]);
    });

    it("a cart under the extended zone's $50 minimum (Manhattan Beach, 90266, about 11 miles)", async () => {
      const before = await orderCount();
      const response = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { zipCode: "90266" }));
      expect(response.status).toBe(400);
      expect(await readJson<ErrorJson>(response)).toMatchObject({
        error: "Your delivery zone requires a minimum order of $50. Please add more items to your cart.",
      });
      expect(await orderCount()).toBe(before);
    });

    it("a cart under the premium zone's $100 minimum (Long Beach, 90802, 20-25 miles)", async () => {
      const place = zipcodes.lookup("90802");
      if (!place) throw new Error("zipcodes does not know 90802");
      const miles = distanceMiles((await shopSettings({ maxAgeMs: 0 })).kitchen, { lat: place.latitude, lon: place.longitude });
      expect(miles).toBeGreaterThan(20);
      expect(miles).toBeLessThanOrEqual(25);

      const before = await orderCount();
      const response = await callFunction("simple-checkout", checkoutBody([["bites-variety", 6]], { zipCode: "90802" }));
      expect(response.status).toBe(400);
      expect((await readJson<ErrorJson>(response)).error).toBe("Your delivery zone requires a minimum order of $100. Please add more items to your cart.");
      expect(await orderCount()).toBe(before);
    });

    it("with the delivery check in spec terms: the zone's minimum in dollars, or why the address could not be checked", async () => {
      const inRange = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { zipCode: "90266" }));
      expect((await readJson<ErrorJson & { delivery?: unknown }>(inRange)).delivery).toEqual({
        isWithinRange: true,
        distance: expect.closeTo(11, 0),
        deliveryZone: "extended",
        minimumOrder: 50,
      });
      const nowhere = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { zipCode: "99999" }));
      expect(nowhere.status).toBe(400);
      expect((await readJson<ErrorJson & { delivery?: unknown }>(nowhere)).delivery).toEqual({
        isWithinRange: false,
        distance: null,
        deliveryZone: "no-delivery",
        minimumOrder: 0,
        error: "Could not determine location",
      });
    });

    it("but accepts the extended zone once the cart reaches $50", async () => {
      const response = await callFunction("simple-checkout", checkoutBody([["bites-variety", 5]], { zipCode: "90266" }));
      expect(response.status).toBe(200);
      const { orderId } = await readJson<CheckoutJson>(response);
      expect(await db.order.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({ deliveryZone: "extended", totalCents: 5000 });
    });
  });

  describe("answers a bad request with a JSON error and writes no order", () => {
    const valid = () => checkoutBody([["bites-variety", 3]]);
    const withShipping = (change: (value: Record<string, string | undefined>) => void) => {
      const body = valid();
      const copy: Record<string, string | undefined> = { ...body.shipping };
      change(copy);
      return { ...body, shipping: copy };
    };

    const cases: [name: string, body: unknown, status: number, contentType?: string][] = [
      ["malformed JSON", '{"items": [', 400],
      ["a JSON array instead of an object", "[]", 400],
      ["no shipping", { ...valid(), shipping: undefined }, 400],
      ["shipping without an address", withShipping((s) => delete s.address), 400],
      ["shipping with a blank first name", withShipping((s) => (s.firstName = "   ")), 400],
      ["shipping with a bad ZIP code", withShipping((s) => (s.zipCode = "9002")), 400],
      ["an invalid email", withShipping((s) => (s.email = "jamie at example.com")), 400],
      ["no items", { ...valid(), items: [] }, 400],
      ["items that are not a list", { ...valid(), items: "bites-variety" }, 400],
      ["quantity 0", { ...valid(), items: [{ product: { id: "bites-variety" }, quantity: 0 }] }, 400],
      ["quantity 100", { ...valid(), items: [{ product: { id: "bites-variety" }, quantity: 100 }] }, 400],
      ["a fractional quantity", { ...valid(), items: [{ product: { id: "bites-variety" }, quantity: 2.5 }] }, 400],
      ["an unknown product", { ...valid(), items: [{ product: { id: "bites-pickle" }, quantity: 3 }] }, 400],
      ["a body over 32 kB", { ...valid(), notes: "x".repeat(33 * 1024) }, 413],
      ["a text/plain body", JSON.stringify(valid()), 415, "text/plain"],
      ["a form body", "items=1", 415, "application/x-www-form-urlencoded"],
    ];

    it.each(cases)("%s", async (_name, body, status, contentType) => {
      const before = await orderCount();
      const response = await callFunction("simple-checkout", body, { contentType });
      expect(response.status).toBe(status);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      const json = await readJson<ErrorJson>(response);
      expect(json.error).toEqual(expect.any(String));
      expect(json.error.length).toBeGreaterThan(0);
      expect(JSON.stringify(json)).not.toMatch(/stack|\.ts:\d/i);
      expect(await orderCount()).toBe(before);
      expect(sessionCreateRequests()).toEqual([]);
    });

    it("names the field that is wrong", async () => {
      const response = await callFunction(
        "simple-checkout",
        withShipping((s) => delete s.city),
      );
      expect((await readJson<ErrorJson>(response)).error).toMatch(/shipping\.city/);
    });

    it("says which products are no longer available", async () => {
      const response = await callFunction("simple-checkout", { ...valid(), items: [{ product: { id: "bites-pickle" }, quantity: 3 }] });
      expect((await readJson<ErrorJson>(response)).error).toBe("Some items in your cart are no longer available. Please review your cart.");
    });
  });

  describe("when Stripe fails, answers 502 Checkout Error and keeps the order, given up so it holds no code", () => {
    async function expectCheckoutError() {
      const logged = captureErrorLog();
      const body = checkoutBody([["bites-variety", 3]]);
      const response = await callFunction("simple-checkout", body);
      expect(response.status).toBe(502);
      expect(await readJson<ErrorJson>(response)).toMatchObject({ error: CHECKOUT_ERROR, title: "Checkout Error" });
      const orders = await db.order.findMany({ where: { email: body.shipping.email } });
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ paymentStatus: "cancelled", stripeSessionId: null, paidAt: null });
      // The failure is logged against the order, without secrets.
      expect(logged()).toContain(orders[0]?.id);
      expect(logged()).not.toMatch(/sk_test|whsec/);
    }

    it("a Stripe 500", async () => {
      server.use(http.post(STRIPE_SESSIONS, () => HttpResponse.json({ error: { type: "api_error", message: "boom" } }, { status: 500 })));
      await expectCheckoutError();
    });

    it("a Stripe timeout", async () => {
      server.use(
        http.post(STRIPE_SESSIONS, async () => {
          await delay(2000);
          return HttpResponse.json({ error: { type: "api_error", message: "too late" } }, { status: 500 });
        }),
      );
      await expectCheckoutError();
    });

    it("a session whose total does not match the order's (and expires it)", async () => {
      server.use(
        http.post(STRIPE_SESSIONS, () =>
          HttpResponse.json({ id: "cs_test_wrongtotal", object: "checkout.session", amount_total: 1, url: "https://checkout.stripe.com/x" }),
        ),
      );
      await expectCheckoutError();
      expect(stripeMock.requests.some((request) => request.path === "/v1/checkout/sessions/cs_test_wrongtotal/expire")).toBe(true);
    });
  });
});

describe("verify-payment", () => {
  it("answers { verified: false, orderId: null } for a session Stripe does not know", async () => {
    const response = await callFunction("verify-payment", { sessionId: "cs_test_doesnotexist" });
    expect(response.status).toBe(200);
    expect(await readJson<VerifyJson>(response)).toEqual({ verified: false, orderId: null });
  });

  it("answers { verified: false } for a session that is not paid yet, and leaves the order unpaid", async () => {
    const { orderId, sessionId } = await placeOrder();
    const response = await callFunction("verify-payment", { sessionId });
    expect(response.status).toBe(200);
    expect(await readJson<VerifyJson>(response)).toEqual({ verified: false, orderId });
    expect(await db.order.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({ paymentStatus: "unpaid", paidAt: null });
    expect(await db.outboxMessage.count({ where: { orderId } })).toBe(0);
  });

  it("answers { verified: true, orderId } for a paid session and marks the order paid", async () => {
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    const response = await callFunction("verify-payment", { sessionId });
    expect(response.status).toBe(200);
    expect(await readJson<VerifyJson>(response)).toEqual({ verified: true, orderId });
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.paymentStatus).toBe("paid");
    expect(order.paidAt).toBeInstanceOf(Date);
  });

  it("can be asked again: still verified, and the order is fulfilled once", async () => {
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    for (let i = 0; i < 3; i++) {
      expect(await readJson<VerifyJson>(await callFunction("verify-payment", { sessionId }))).toEqual({ verified: true, orderId });
    }
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } })).toBe(1);
  });

  it("answers 400 for a malformed session id, without asking Stripe", async () => {
    for (const sessionId of ["not-a-session", "cs_../../v1/customers", "", 42]) {
      const response = await callFunction("verify-payment", { sessionId });
      expect(response.status).toBe(400);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.stringMatching(/sessionId/), fieldErrors: { sessionId: expect.any(String) } });
    }
    expect((await callFunction("verify-payment", {})).status).toBe(400);
    expect(stripeMock.requests).toEqual([]);
  });

  it("answers 502 with a JSON error when Stripe fails", async () => {
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    const logged = captureErrorLog();
    server.use(http.get(`${STRIPE_SESSIONS}/:id`, () => HttpResponse.json({ error: { type: "api_error", message: "boom" } }, { status: 500 })));
    const response = await callFunction("verify-payment", { sessionId });
    expect(response.status).toBe(502);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
    expect(logged()).toContain(sessionId);
  });
});

/** Freezes the clock a few seconds into a minute, so a fixed rate-limit window cannot roll over mid-test. */
function freezeClockEarlyInTheMinute() {
  const now = new Date();
  now.setUTCSeconds(5, 0);
  vi.useFakeTimers({ toFake: ["Date"], now });
  return now;
}

function limitedAddress(label: string) {
  return `203.0.113.${Math.floor(Math.random() * 250)}-${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

describe("verify-payment is rate limited per address, as it asks Stripe", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the 11th request a minute from one address answers 429 JSON with Retry-After, without asking Stripe", async () => {
    const now = freezeClockEarlyInTheMinute();
    const clientAddress = limitedAddress("verify");
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    for (let index = 0; index < 10; index++) {
      const response = await callFunction("verify-payment", { sessionId }, { clientAddress });
      expect(response.status, `request ${index + 1}`).toBe(200);
      expect(await readJson<VerifyJson>(response)).toEqual({ verified: true, orderId });
    }

    const stripeCalls = stripeMock.requests.length;
    const refused = await callFunction("verify-payment", { sessionId }, { clientAddress });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await readJson<ErrorJson>(refused)).toEqual({ error: expect.stringContaining("Please wait") });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(stripeMock.requests.length).toBe(stripeCalls);

    // Someone else, at the same moment; and the same address the next minute.
    expect((await callFunction("verify-payment", { sessionId }, { clientAddress: limitedAddress("other") })).status).toBe(200);
    vi.setSystemTime(new Date(now.getTime() + 60_000));
    expect((await callFunction("verify-payment", { sessionId }, { clientAddress })).status).toBe(200);
  });

  it("counts malformed requests too", async () => {
    freezeClockEarlyInTheMinute();
    const clientAddress = limitedAddress("verify-bad");
    for (let index = 0; index < 10; index++) {
      expect((await callFunction("verify-payment", { sessionId: "nope" }, { clientAddress })).status).toBe(400);
    }
    expect((await callFunction("verify-payment", { sessionId: "nope" }, { clientAddress })).status).toBe(429);
  });
});

describe("check-secrets is rate limited per address", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the 11th request a minute from one address answers 429 JSON with Retry-After", async () => {
    const now = freezeClockEarlyInTheMinute();
    const clientAddress = limitedAddress("secrets");
    for (let index = 0; index < 10; index++) {
      expect((await callFunction("check-secrets", {}, { clientAddress })).status, `request ${index + 1}`).toBe(200);
    }
    const refused = await callFunction("check-secrets", {}, { clientAddress });
    expect(refused.status).toBe(429);
    expect(await readJson<ErrorJson>(refused)).toEqual({ error: expect.stringContaining("Please wait") });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);

    expect((await callFunction("check-secrets", {}, { clientAddress: limitedAddress("other") })).status).toBe(200);
    vi.setSystemTime(new Date(now.getTime() + 60_000));
    expect((await callFunction("check-secrets", {}, { clientAddress })).status).toBe(200);
  });
});
