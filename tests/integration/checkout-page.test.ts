import { randomUUID } from "node:crypto";
import type { SerializeFrom } from "@remix-run/node";
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/checkout/route";
import { shippingFields } from "~/lib/shipping-fields";
import { db } from "~/utils/db.server";
import {
  browser,
  callFunction,
  cartClient,
  deliverStripeEvent,
  payOrder,
  readJson,
  shipping,
  signedInAdmin,
  stripeSessionEvent,
  type Browser,
  type CartLine,
} from "../utils";

/**
 * The checkout page's form, one intent at a time, through the route's action
 * as the page posts it: a form-encoded body with the cart cookie the /cart
 * action set. Every answer carries the order summary the server priced; the
 * figures below are the shop's rules worked out by hand (bites are $10.00 a
 * carton, shipping $10.00 under $50.00, WELCOME10 takes 10%).
 */

type LoaderJson = SerializeFrom<typeof checkoutLoader>;
type ActionJson = SerializeFrom<typeof checkoutAction>;
/** The action's answer to a known intent: the whole new state of the form. */
type StateJson = Extract<ActionJson, { values: unknown }>;

const STRIPE_SESSIONS = "https://api.stripe.com/v1/checkout/sessions";
const WEST_LA_KEY = "11600 wilshire blvd|los angeles|ca|90025";
const WELCOME10 = { code: "WELCOME10", kind: "percent", terms: { basisPoints: 1000 }, description: "10% off your first order", firstOrderOnly: true };

afterEach(() => {
  vi.restoreAllMocks();
});

/** A visitor whose cart holds `lines`, put there through the /cart action. */
async function shopperWith(lines: CartLine[] = [["bites-variety", 3]]) {
  const visitor = browser();
  const cart = cartClient(visitor);
  for (const [productId, quantity] of lines) {
    expect((await cart.post({ intent: "add", productId, quantity: String(quantity) })).status).toBe(200);
  }
  return visitor;
}

/** The checkout form as the page posts it: every field, filled in for West LA, and the button's intent. */
function checkoutForm(intent: string, overrides: Record<string, string> = {}) {
  return { intent, ...shipping(), code: "", ...overrides };
}

function postCheckout(visitor: Browser, fields: Record<string, string>, options: { html?: boolean; headers?: Record<string, string> } = {}) {
  return visitor.post(checkoutAction, "/checkout", fields, options);
}

async function stateOf(response: Response) {
  return readJson<StateJson>(response);
}

async function openCheckout(visitor: Browser) {
  const response = await visitor.get(checkoutLoader, "/checkout");
  expect(response.status).toBe(200);
  return readJson<LoaderJson>(response);
}

/** Checks the address as the page does first, then places the order with what that answer said, as the page's hidden fields do. */
async function placeOrderAt(visitor: Browser, fields: Record<string, string>, options: { html?: boolean } = {}) {
  const checked = await stateOf(await postCheckout(visitor, { ...fields, intent: "check-delivery" }));
  expect(checked.delivery?.ok, "the address should be in range").toBe(true);
  return postCheckout(
    visitor,
    {
      ...fields,
      intent: "place-order",
      checkedAddress: checked.delivery?.addressKey ?? "",
      quotedTotalCents: String(checked.summary.totalCents),
    },
    options,
  );
}

describe("opening the checkout (loader)", () => {
  it("answers an empty form, California preselected, and the summary of the cart", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const response = await visitor.get(checkoutLoader, "/checkout");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const { placed, checkout, cancelled } = await readJson<LoaderJson>(response);
    expect(placed).toBeNull();
    expect(cancelled).toBe(false);
    // Every field of the form empty (shipping-fields.ts), but the state.
    expect(checkout?.values).toEqual({ ...Object.fromEntries(shippingFields.map((field) => [field, ""])), state: "CA", code: "" });
    expect(checkout?.summary).toMatchObject({ subtotalCents: 3000, discountCents: 0, shippingCents: 1000, totalCents: 4000, remainingCents: 0 });
  });

  it("sends a visitor with an empty cart back to the shop", async () => {
    expect(await browser().get(checkoutLoader, "/checkout")).toHaveRedirect("/shop");
  });
});

describe("apply-discount", () => {
  it("applies WELCOME10 for a new customer: 10% off, the field cleared, the summary repriced", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const response = await postCheckout(visitor, checkoutForm("apply-discount", { code: " welcome10 " }));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state).toMatchObject({
      fieldErrors: {},
      message: { title: "Discount Applied!", description: "WELCOME10: 10% off your first order." },
      discount: WELCOME10,
      values: { code: "" },
    });
    expect(state.summary).toMatchObject({ subtotalCents: 3000, discountCode: "WELCOME10", discountCents: 300, shippingCents: 1000, totalCents: 3700 });
  });

  it("judges free shipping on the subtotal before the discount: $50.00 less 10% ships free", async () => {
    const visitor = await shopperWith([["bites-variety", 5]]);
    const state = await stateOf(await postCheckout(visitor, checkoutForm("apply-discount", { code: "WELCOME10" })));
    expect(state.summary).toMatchObject({ subtotalCents: 5000, discountCents: 500, shippingCents: 0, totalCents: 4500 });
  });

  it("answers 400 with the error on the code field for a code that does not exist, and keeps what was typed", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("apply-discount", { code: "FREESTUFF" }));
    expect(response.status).toBe(400);
    const state = await stateOf(response);
    expect(state.fieldErrors).toEqual({ code: expect.stringMatching(/FREESTUFF.*not a valid discount code/) });
    expect(state.message).toMatchObject({ title: "Invalid Code", destructive: true });
    expect(state.discount).toBeNull();
    expect(state.values.code).toBe("FREESTUFF");
    expect(state.summary).toMatchObject({ discountCode: null, discountCents: 0, totalCents: 4000 });
  });

  it("answers 400 on the email field when there is no email to check the code against", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("apply-discount", { email: "", code: "WELCOME10" }));
    expect(response.status).toBe(400);
    const state = await stateOf(response);
    expect(state.fieldErrors).toEqual({ email: expect.any(String) });
    expect(state.message).toEqual({
      title: "Enter Your Email",
      description: "Please enter your email before applying a discount code.",
      destructive: true,
    });
    expect(state.discount).toBeNull();
  });
});

describe("remove-discount", () => {
  it("drops the applied code and reprices without it", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("remove-discount", { appliedCode: "WELCOME10" }));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.discount).toBeNull();
    expect(state.message).toEqual({ title: "Discount Removed", description: "The discount code has been removed." });
    expect(state.summary).toMatchObject({ discountCode: null, discountCents: 0, totalCents: 4000 });
  });
});

describe("check-delivery", () => {
  it("places an address in West LA in the standard zone", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("check-delivery"));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.delivery).toMatchObject({ ok: true, zone: "standard", minimumCents: 0, addressKey: WEST_LA_KEY });
    expect(state.message).toEqual({
      title: "Delivery Available!",
      description: expect.stringMatching(/^Great news: you're \d+\.\d miles from our kitchen, in our standard delivery zone\.$/),
    });
    expect(state.summary).toMatchObject({ zoneMinimumCents: 0, zoneRemainingCents: 0, totalCents: 4000 });
  });

  it("says an address 100 miles away (Bakersfield, 93301) is outside the delivery area", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("check-delivery", { address: "1600 Truxtun Ave", city: "Bakersfield", zipCode: "93301" }));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.delivery).toMatchObject({ ok: false, reason: "outside-area" });
    expect(state.message).toEqual({
      title: "Outside Delivery Area",
      description: "You're outside our 25-mile delivery area. Please contact us directly to arrange delivery.",
      destructive: true,
    });
  });

  it("tells a $30.00 cart in the extended zone (Manhattan Beach, 90266) about that zone's $50 minimum", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const response = await postCheckout(visitor, checkoutForm("check-delivery", { address: "1400 Highland Ave", city: "Manhattan Beach", zipCode: "90266" }));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.delivery).toMatchObject({ ok: true, zone: "extended", minimumCents: 5000 });
    expect(state.message).toEqual({
      title: "Minimum Order Not Met",
      description: "Your delivery zone requires a minimum order of $50. Please add more items to your cart.",
      destructive: true,
    });
    expect(state.summary).toMatchObject({ zoneMinimumCents: 5000, zoneRemainingCents: 2000 });
  });

  it("answers 400 with the missing address fields marked, and checks nothing", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("check-delivery", { address: "", city: " " }));
    expect(response.status).toBe(400);
    const state = await stateOf(response);
    expect(state.fieldErrors).toEqual({ address: "Required", city: "Required" });
    expect(state.message).toMatchObject({ title: "Complete Address Required" });
    expect(state.delivery).toBeNull();
  });
});

describe("refresh", () => {
  it("answers the priced summary of the cart and no message", async () => {
    const visitor = await shopperWith([
      ["bites-variety", 2],
      ["bar-chocolate-pb", 1],
    ]);
    const response = await postCheckout(visitor, checkoutForm("refresh"));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.message).toBeNull();
    expect(state.summary).toEqual({
      lines: [
        expect.objectContaining({ id: "bites-variety", priceCents: 1000, quantity: 2, lineTotalCents: 2000 }),
        expect.objectContaining({ id: "bar-chocolate-pb", priceCents: 600, quantity: 1, lineTotalCents: 600 }),
      ],
      subtotalCents: 2600,
      discountCode: null,
      discountCents: 0,
      discountProblem: null,
      shippingCents: 1000,
      shippingWaived: false,
      totalCents: 3600,
      minimumCents: 2000,
      remainingCents: 0,
      zoneMinimumCents: null,
      zoneRemainingCents: 0,
      soldOut: [],
      freeShippingHint: "Add $24.00 for free shipping",
      cartProblem: null,
    });
  });

  it("re-checks the applied code and the checked address it is sent", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("refresh", { appliedCode: "WELCOME10", checkedAddress: WEST_LA_KEY }));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.discount).toMatchObject(WELCOME10);
    expect(state.delivery).toMatchObject({ ok: true, zone: "standard", addressKey: WEST_LA_KEY });
    expect(state.summary).toMatchObject({ discountCents: 300, totalCents: 3700 });
  });

  it("answers 400 to an intent it does not know", async () => {
    const response = await postCheckout(await shopperWith(), checkoutForm("steal"));
    expect(response.status).toBe(400);
    expect(await readJson<ActionJson>(response)).toEqual({ error: "Unknown checkout action." });
  });

  it("sends a post with an empty cart to the checkout page, which sends a browser with no order waiting to the shop", async () => {
    const visitor = browser();
    // The checkout page shows an order this browser placed in another tab; with none, the shop.
    expect(await postCheckout(visitor, checkoutForm("refresh"))).toHaveRedirect("/checkout");
    expect(await visitor.get(checkoutLoader, "/checkout")).toHaveRedirect("/shop");
  });
});

describe("place-order", () => {
  it("places the order at the total shown and answers where to pay; the cart waits with the order", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const response = await placeOrderAt(visitor, checkoutForm("place-order"));
    expect(response.status).toBe(200);
    const { placed } = await stateOf(response);
    expect(placed).toEqual({ orderId: expect.any(String), shortId: expect.any(String), totalCents: 4000, paymentUrl: expect.any(String) });

    const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === placed?.orderId);
    expect(session).toMatchObject({ amount_total: 4000, status: "open" });
    expect(placed?.paymentUrl).toBe(session?.url);

    expect(await cartClient(visitor).items()).toEqual([]);
    const page = await openCheckout(visitor);
    expect(page.checkout).toBeNull();
    expect(page.placed).toEqual(placed);
  });

  it("a paid order refunded before the customer comes back does not bring its items back into the cart", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const { placed } = await stateOf(await placeOrderAt(visitor, checkoutForm("place-order")));
    const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === placed?.orderId);
    await payOrder(session!.id);
    const owner = await signedInAdmin("owner", "owner");
    expect((await callFunction("refund-order", { orderId: placed!.orderId, reason: "Out of stock" }, { cookie: owner.cookie })).status).toBe(200);

    expect(await cartClient(visitor).items()).toEqual([]);
  });

  it("redirects a plain form post (no JavaScript) to the payment page", async () => {
    const visitor = await shopperWith();
    const response = await placeOrderAt(visitor, checkoutForm("place-order"), { html: true });
    expect(response.status).toBe(303);
    const sessions = await stripeMock.allSessions();
    expect(sessions).toHaveLength(1);
    expect(response).toHaveRedirect(sessions[0]!.url);
  });

  it("refuses a total the customer was not shown, says the new one, and places nothing", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const fields = checkoutForm("place-order", { checkedAddress: WEST_LA_KEY, quotedTotalCents: "3999" });
    const response = await postCheckout(visitor, fields);
    expect(response.status).toBe(400);
    const state = await stateOf(response);
    expect(state.placed).toBeUndefined();
    expect(state.message).toEqual({
      title: "Total Updated",
      description: "Your order total is now $40.00. Please check it and place your order again.",
      destructive: true,
    });
    expect(state.summary.totalCents).toBe(4000);
    expect(await db.order.count({ where: { email: fields.email } })).toBe(0);
  });

  it("answers 400 with the field errors of an incomplete form, and places nothing", async () => {
    const visitor = await shopperWith();
    const fields = checkoutForm("place-order", { firstName: " ", zipCode: "9002", checkedAddress: WEST_LA_KEY });
    const response = await postCheckout(visitor, fields);
    expect(response.status).toBe(400);
    const state = await stateOf(response);
    expect(state.fieldErrors).toEqual({ firstName: "Required", zipCode: "Enter a 5-digit ZIP code" });
    expect(state.message).toEqual({ title: "Missing Information", description: "Please fill in all required fields.", destructive: true });
    expect(state.placed).toBeUndefined();
    expect(stripeMock.requests).toEqual([]);
  });

  it("checks delivery first when the address was never checked, and places nothing yet", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, checkoutForm("place-order"));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.placed).toBeUndefined();
    expect(state.delivery).toMatchObject({ ok: true, addressKey: WEST_LA_KEY });
    expect(state.message).toMatchObject({ title: "Delivery Available!" });
    expect(stripeMock.requests).toEqual([]);
  });

  it("applies a code typed but not yet applied, shows the new total, and places nothing yet", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const response = await postCheckout(visitor, checkoutForm("place-order", { code: "WELCOME10", checkedAddress: WEST_LA_KEY }));
    expect(response.status).toBe(200);
    const state = await stateOf(response);
    expect(state.placed).toBeUndefined();
    expect(state.discount).toMatchObject(WELCOME10);
    expect(state.message).toEqual({
      title: "Discount Applied!",
      description: "WELCOME10: 10% off your first order. Your total is now $37.00: press Place Order to pay.",
    });
  });

  it("answers 502 with the Checkout Error when Stripe fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    server.use(http.post(STRIPE_SESSIONS, () => HttpResponse.json({ error: { type: "api_error", message: "boom" } }, { status: 500 })));
    const visitor = await shopperWith();
    const response = await placeOrderAt(visitor, checkoutForm("place-order"));
    expect(response.status).toBe(502);
    const state = await stateOf(response);
    expect(state.placed).toBeUndefined();
    expect(state.message).toEqual({
      title: "Checkout Error",
      description: "There was an error processing your order. Please try again.",
      destructive: true,
    });
    expect(await cartClient(visitor).items()).toEqual([["bites-variety", 3]]);
  });
});

describe("resume ('Return to checkout' from the page that waits for payment)", () => {
  it("gives the order up and brings back the cart and the filled form", async () => {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const fields = checkoutForm("place-order");
    const { placed } = await stateOf(await placeOrderAt(visitor, fields));
    if (!placed) throw new Error("The order was not placed");

    const response = await postCheckout(visitor, { intent: "resume" });
    expect(response.status).toBe(303);
    expect(response).toHaveRedirect("/checkout");
    expect(await db.order.findUniqueOrThrow({ where: { id: placed.orderId } })).toMatchObject({ paymentStatus: "cancelled" });
    const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === placed.orderId);
    expect(session?.status).toBe("expired");

    const page = await openCheckout(visitor);
    expect(page.placed).toBeNull();
    expect(page.checkout?.values).toMatchObject({ firstName: "Jamie", lastName: "Rivera", email: fields.email, zipCode: "90025" });
    expect(page.checkout?.delivery).toMatchObject({ ok: true, addressKey: WEST_LA_KEY });
    expect(page.checkout?.summary).toMatchObject({ subtotalCents: 3000, totalCents: 4000 });
    expect(await cartClient(visitor).items()).toEqual([["bites-variety", 3]]);
  });

  it("with no order waiting, only goes back to the checkout", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, { intent: "resume" });
    expect(response.status).toBe(303);
    expect(response).toHaveRedirect("/checkout");
    expect((await openCheckout(visitor)).checkout?.values.firstName).toBe("");
  });
});

describe("returning with ?cancelled=true (Cancel on the payment page): the page offers, only a same-origin POST cancels", () => {
  /** A visitor whose order for 3 bites ($40.00) waits for payment, and that order's payment page. */
  async function visitorPaying() {
    const visitor = await shopperWith([["bites-variety", 3]]);
    const fields = checkoutForm("place-order");
    const { placed } = await stateOf(await placeOrderAt(visitor, fields));
    if (!placed) throw new Error("The order was not placed");
    const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === placed.orderId);
    if (!session) throw new Error("No payment page was opened");
    return { visitor, fields, placed, session };
  }

  async function expectStillPending(orderId: string, sessionId: string) {
    expect(await db.order.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({ paymentStatus: "unpaid" });
    expect((await stripeMock.session(sessionId))?.status).toBe("open");
  }

  it.each([
    ["from the payment page", {}],
    ["from a link on another site", { "Sec-Fetch-Site": "cross-site" }],
  ])("a GET %s leaves the order pending and its payment page open, and offers to cancel it", async (_from, headers) => {
    const { visitor, fields, placed, session } = await visitorPaying();

    const response = await visitor.get(checkoutLoader, "/checkout?cancelled=true", { headers });
    expect(response.status).toBe(200);
    await expectStillPending(placed.orderId, session.id);
    const page = await readJson<LoaderJson>(response);
    expect(page.cancelled).toBe(true);
    expect(page.openPayment).toEqual({ orderId: placed.orderId, shortId: placed.shortId, totalCents: 4000, paymentUrl: session.url });
    // The cart and the form as they were, shown with the offer.
    expect(page.checkout?.values).toMatchObject({ firstName: "Jamie", email: fields.email, zipCode: "90025" });
    expect(page.checkout?.summary).toMatchObject({ subtotalCents: 3000, totalCents: 4000 });
    // Still this browser's order waiting for payment: the cart stays with it.
    expect(await cartClient(visitor).items()).toEqual([]);
    const again = await readJson<LoaderJson>(await visitor.get(checkoutLoader, "/checkout"));
    expect(again.placed).toMatchObject({ orderId: placed.orderId });
  });

  it("the POST cancel-payment cancels the order, closes its payment page and brings back the cart and the form", async () => {
    const { visitor, fields, placed, session } = await visitorPaying();
    await visitor.get(checkoutLoader, "/checkout?cancelled=true");

    const response = await postCheckout(visitor, { intent: "cancel-payment" }, { html: true });
    expect(response).toHaveRedirect("/checkout?cancelled=true");
    expect(response.status).toBe(303);
    expect(await db.order.findUniqueOrThrow({ where: { id: placed.orderId } })).toMatchObject({ paymentStatus: "cancelled" });
    expect((await stripeMock.session(session.id))?.status).toBe("expired");

    const page = await readJson<LoaderJson>(await visitor.get(checkoutLoader, "/checkout?cancelled=true"));
    expect(page.openPayment).toBeNull();
    expect(page.placed).toBeNull();
    expect(page.checkout?.values).toMatchObject({ firstName: "Jamie", email: fields.email, zipCode: "90025" });
    expect(page.checkout?.delivery).toMatchObject({ ok: true, addressKey: WEST_LA_KEY });
    expect(await cartClient(visitor).items()).toEqual([["bites-variety", 3]]);
    // A reload keeps the form (the draft).
    const reloaded = await readJson<LoaderJson>(await visitor.get(checkoutLoader, "/checkout?cancelled=true"));
    expect(reloaded.checkout?.values).toMatchObject({ email: fields.email });
  });

  it("shows the order's code as applied even when the order holds its last use", async () => {
    const code = `LAST${randomUUID().slice(0, 6).toUpperCase()}`;
    await db.discountCode.create({ data: { code, kind: "percent", terms: { basisPoints: 1000 }, description: "10% off, once", usageLimit: 1 } });
    const visitor = await shopperWith([["bites-variety", 3]]);
    const fields = checkoutForm("place-order", { code });
    await postCheckout(visitor, { ...fields, intent: "apply-discount" });
    const { placed } = await stateOf(await placeOrderAt(visitor, { ...fields, code: "", appliedCode: code }));
    expect(placed?.totalCents).toBe(3700);

    const page = await readJson<LoaderJson>(await visitor.get(checkoutLoader, "/checkout?cancelled=true"));
    expect(page.openPayment).toMatchObject({ orderId: placed?.orderId, totalCents: 3700 });
    expect(page.checkout?.message).toBeNull();
    expect(page.checkout?.discount).toMatchObject({ code });
    expect(page.checkout?.summary).toMatchObject({ discountCents: 300, totalCents: 3700 });
  });

  it.each([
    ["an Origin of another site", { Origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
  ])("a cross-site POST (%s) is refused with 403, and the order stays pending", async (_how, headers) => {
    const { visitor, placed, session } = await visitorPaying();
    const response = await postCheckout(visitor, { intent: "cancel-payment" }, { html: true, headers });
    expect(response.status).toBe(403);
    await expectStillPending(placed.orderId, session.id);
  });

  it("says so and keeps the offer when Stripe cannot be reached to close the page", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { visitor, placed, session } = await visitorPaying();
    server.use(
      http.post(`${STRIPE_SESSIONS}/:id/expire`, () => HttpResponse.json({ error: { type: "api_error", message: "boom" } }, { status: 500 })),
      http.get(`${STRIPE_SESSIONS}/:id`, () => HttpResponse.json({ error: { type: "api_error", message: "boom" } }, { status: 500 })),
    );
    const response = await postCheckout(visitor, { intent: "cancel-payment" });
    expect(response.status).toBe(502);
    expect(await readJson<{ error: string }>(response)).toEqual({ error: "We could not cancel the payment just now. Please try again in a moment." });
    expect(await db.order.findUniqueOrThrow({ where: { id: placed.orderId } })).toMatchObject({ paymentStatus: "unpaid" });
    server.resetHandlers();
    expect((await readJson<LoaderJson>(await visitor.get(checkoutLoader, "/checkout?cancelled=true"))).openPayment).toMatchObject({
      orderId: placed.orderId,
      paymentUrl: session.url,
    });
  });

  it("an order paid meanwhile goes to its confirmation, from the GET and from the POST", async () => {
    const { visitor, placed, session } = await visitorPaying();
    await payOrder(session.id);
    expect(await visitor.get(checkoutLoader, "/checkout?cancelled=true")).toHaveRedirect(`/order-success?session_id=${session.id}`);
    expect(await postCheckout(visitor, { intent: "cancel-payment" }, { html: true })).toHaveRedirect(`/order-success?session_id=${session.id}`);
    expect(await db.order.findUniqueOrThrow({ where: { id: placed.orderId } })).toMatchObject({ paymentStatus: "paid" });
  });

  it("an order whose payment page Stripe expired is given up already: the cart and the form come back with nothing to offer", async () => {
    const { visitor, fields, placed, session } = await visitorPaying();
    const expired = await stripeMock.timeOut(session.id);
    if (!expired) throw new Error("The Stripe stand-in could not expire the session");
    expect((await deliverStripeEvent(stripeSessionEvent("checkout.session.expired", expired))).status).toBe(200);
    expect(await db.order.findUniqueOrThrow({ where: { id: placed.orderId } })).toMatchObject({ paymentStatus: "expired" });

    const page = await readJson<LoaderJson>(await visitor.get(checkoutLoader, "/checkout?cancelled=true"));
    expect(page.openPayment).toBeNull();
    expect(page.checkout?.values).toMatchObject({ email: fields.email });
    expect(await cartClient(visitor).items()).toEqual([["bites-variety", 3]]);
  });

  it("with no order waiting, the POST only goes back to the checkout", async () => {
    const visitor = await shopperWith();
    const response = await postCheckout(visitor, { intent: "cancel-payment" }, { html: true });
    expect(response).toHaveRedirect("/checkout?cancelled=true");
    const page = await readJson<LoaderJson>(await visitor.get(checkoutLoader, "/checkout?cancelled=true"));
    expect(page.openPayment).toBeNull();
    expect(page.checkout?.summary).toMatchObject({ totalCents: 4000 });
  });
});
