import { formatCents } from "~/lib/money";
import { http, HttpResponse } from "msw";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { settlePendingRefunds } from "~/models/refunds.server";
import { refundPayment } from "~/services/stripe.server";
import { db } from "~/utils/db.server";
import { OWNER_ONLY_MESSAGE } from "~/lib/operators";
import {
  callFunction,
  chargeRefunded,
  deliverStripeEvent,
  expectDailySalesToAgree,
  orderFor,
  payOrder,
  placeOrder,
  readJson,
  signedInAdmin,
  type ErrorJson,
} from "../utils";

/**
 * Partial refunds (issue 23 item 5, decision 066): the owner refunds an
 * amount, chosen lines (their stock back if asked) or the rest; Stripe's
 * dashboard may refund part too. Each refund is made once at Stripe with its
 * own idempotency key, recorded once (a Refund row), mailed once, and the
 * day's revenue keeps what the order kept. The order is `refunded` only when
 * its refunds reach its total.
 */

const STRIPE_REFUNDS = "https://api.stripe.com/v1/refunds";

type RefundJson = { message: string; alreadyRefunded: boolean; pending?: boolean };
type PreviewJson = { amount: number; refunded: number; total: number; left: number };

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("owner", "owner");
  staff = await signedInAdmin("staff", "staff");
});
beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await db.product.updateMany({ data: { stock: null } });
});

const refund = (body: unknown, cookie = owner.cookie) => callFunction("refund-order", body, { cookie });
const refundCalls = () => stripeMock.requests.filter((request) => request.method === "POST" && request.path === "/v1/refunds");
const orderRow = (orderId: string) => db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: { orderBy: { id: "asc" } } } });
const refundRows = (orderId: string) => db.refund.findMany({ where: { orderId }, orderBy: { createdAt: "asc" } });
const emails = (orderId: string) =>
  db.outboxMessage.findMany({ where: { orderId, kind: { in: ["order-refunded", "order-part-refunded"] } }, orderBy: { createdAt: "asc" } });

/** A paid order: by default three cartons of bites at $10 and $10 shipping ($40), or the lines given. */
async function paidOrder(lines?: [string, number][]) {
  const { orderId } = await orderFor({}, lines);
  const order = await orderRow(orderId);
  return { orderId, order, paymentIntentId: order.paymentIntentId!, short: orderId.slice(0, 8) };
}

describe("refund-order: an amount, then the rest", () => {
  it("refunds $12.50 of $40.00 (the order stays paid), then the rest: two Stripe refunds, two records, two emails, the day's revenue following", async () => {
    const { orderId, paymentIntentId, short } = await paidOrder();

    const first = await refund({ orderId, reason: "One carton melted", amount: 12.5 });
    expect(first.status).toBe(200);
    expect(await readJson<RefundJson>(first)).toEqual({
      message: `Refunded $12.50 of order ${short} to the customer's card; $12.50 of $40.00 refunded so far.`,
      alreadyRefunded: false,
    });
    expect(refundCalls()).toEqual([
      expect.objectContaining({
        body: expect.objectContaining({ payment_intent: paymentIntentId, amount: "1250" }),
        idempotencyKey: `refund-${orderId}-0-1250`,
      }),
    ]);
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "paid", refundedCents: 1250, refundedAt: null, stripeRefundId: null });
    expect(await refundRows(orderId)).toEqual([
      expect.objectContaining({
        amountCents: 1250,
        reason: "One carton melted",
        refundedBy: owner.email,
        stripeRefundId: stripeMock.refunds()[0]!.id,
        lines: null,
      }),
    ]);
    const [partEmail] = await emails(orderId);
    expect(partEmail).toMatchObject({ kind: "order-part-refunded", subject: expect.stringMatching(/^\$12\.50 of your .* order .* has been refunded$/) });
    expect(partEmail!.text).toContain(`We've refunded $12.50 from order ${short} to the card you paid with.`);
    expect(partEmail!.text).toContain("The rest of your order stands as it was.");
    // Under the order's total, the refund and what the order now comes to (issue 38 item 5).
    const total = (await orderRow(orderId)).totalCents;
    expect(partEmail!.text).toContain("  Refunded  -$12.50");
    expect(partEmail!.text).toContain(`  You paid, after refunds  ${formatCents(total - 1250)}`);
    // In the HTML, the figure is bold in the label's row.
    const paidAfter = formatCents(total - 1250).replace(/[$.,]/g, "\\$&");
    expect(partEmail!.html).toMatch(new RegExp(`You paid, after refunds</td><td align="right"[^>]*font-weight:700[^>]*>${paidAfter}</td>`));
    await expectDailySalesToAgree();

    // The order page and the admin say what was refunded.
    const { order: shown } = await readJson<{ order: { refunds: { amount_cents: number; reason: string | null }[]; refunded_cents: number } }>(
      await callFunction("get-order", { orderId }, { cookie: owner.cookie }),
    );
    expect(shown).toMatchObject({ refunded_cents: 1250, refunds: [expect.objectContaining({ amount_cents: 1250, reason: "One carton melted" })] });

    const rest = await refund({ orderId, reason: "Customer asked to cancel the rest" });
    expect(rest.status).toBe(200);
    expect((await readJson<RefundJson>(rest)).message).toBe(`Order ${short} is refunded: $27.50 goes back to the customer's card ($40.00 in all).`);
    expect(refundCalls()[1]).toMatchObject({ body: expect.objectContaining({ amount: "2750" }), idempotencyKey: `refund-${orderId}-1250-2750` });
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "refunded", refundedCents: 4000, refundReason: "Customer asked to cancel the rest" });
    expect((await refundRows(orderId)).map((row) => row.amountCents)).toEqual([1250, 2750]);
    const [, wholeEmail] = await emails(orderId);
    expect(wholeEmail).toMatchObject({ kind: "order-refunded" });
    expect(wholeEmail!.text).toContain(`We've refunded the rest of order ${short}, $27.50, to the card you paid with: $40.00 in all.`);
    await expectDailySalesToAgree();

    // Nothing is left: a third call changes nothing and asks Stripe nothing.
    const again = await refund({ orderId, reason: "Again" });
    expect(await readJson<RefundJson>(again)).toEqual({ message: `Order ${short} was already refunded.`, alreadyRefunded: true });
    expect(refundCalls()).toHaveLength(2);
  });

  it("refuses more than is left, before asking Stripe", async () => {
    const { orderId } = await paidOrder();
    expect((await refund({ orderId, reason: "Goodwill", amount: 30 })).status).toBe(200);
    const response = await refund({ orderId, reason: "Goodwill", amount: 10.01 });
    expect(response.status).toBe(409);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "At most $10.00 of this order is left to refund." });
    expect(refundCalls()).toHaveLength(1);
    expect((await orderRow(orderId)).refundedCents).toBe(3000);
  });

  it("Stripe refusing (more than the charge holds) is said in Stripe's words, and nothing is recorded", async () => {
    const { orderId } = await paidOrder();
    server.use(
      http.post(STRIPE_REFUNDS, () =>
        HttpResponse.json(
          { error: { type: "invalid_request_error", message: "Refund amount ($5.00) is greater than unrefunded amount on charge ($0.00)" } },
          { status: 400 },
        ),
      ),
    );
    const response = await refund({ orderId, reason: "Goodwill", amount: 5 });
    expect(response.status).toBe(409);
    expect((await readJson<ErrorJson>(response)).error).toBe(
      "Stripe refused the refund: Refund amount ($5.00) is greater than unrefunded amount on charge ($0.00)",
    );
    expect(await refundRows(orderId)).toEqual([]);
  });
});

describe("refund-order: chosen lines", () => {
  it("refunds two of three cartons at their share of what was paid, gives their stock back when asked, and never the same carton twice", async () => {
    await db.product.update({ where: { id: "bites-variety" }, data: { stock: 20 } });
    const { orderId, order, short } = await paidOrder([["bites-variety", 3]]);
    const [line] = order.items;
    expect(await db.product.findUniqueOrThrow({ where: { id: "bites-variety" }, select: { stock: true } })).toEqual({ stock: 17 });

    // The dialog's figure is the server's, and asking it moves nothing.
    const preview = await refund({ orderId, preview: true, lines: [{ itemId: line!.id, quantity: 2 }] });
    expect(await readJson<PreviewJson>(preview)).toEqual({ amount: 20, refunded: 0, total: 40, left: 40 });
    expect(refundCalls()).toEqual([]);
    expect((await refund({ orderId, preview: true, lines: [{ itemId: line!.id, quantity: 2 }] }, staff.cookie)).status).toBe(403);

    const response = await refund({ orderId, reason: "Two cartons arrived soft", lines: [{ itemId: line!.id, quantity: 2 }], restock: true });
    expect(response.status).toBe(200);
    expect((await readJson<RefundJson>(response)).message).toBe(`Refunded $20.00 of order ${short} to the customer's card; $20.00 of $40.00 refunded so far.`);
    expect(refundCalls()[0]).toMatchObject({ body: expect.objectContaining({ amount: "2000" }) });
    expect(await refundRows(orderId)).toEqual([expect.objectContaining({ amountCents: 2000, lines: [{ itemId: line!.id, quantity: 2 }], restocked: true })]);
    expect(await db.product.findUniqueOrThrow({ where: { id: "bites-variety" }, select: { stock: true } })).toEqual({ stock: 19 });
    expect((await orderRow(orderId)).items[0]!.heldQuantity).toBe(1);
    const [email] = await emails(orderId);
    expect(email!.text).toContain(`We've refunded $20.00 for 2 × ${line!.name} from order ${short}`);

    const twice = await refund({ orderId, reason: "Again", lines: [{ itemId: line!.id, quantity: 2 }] });
    expect(twice.status).toBe(409);
    expect(await readJson<ErrorJson>(twice)).toEqual({ error: `${line!.name}: at most 1 left to refund of 3.` });
    const foreign = await refund({ orderId, reason: "Again", lines: [{ itemId: 999_999, quantity: 1 }] });
    expect(await readJson<ErrorJson>(foreign)).toEqual({ error: "Line 999999 is not in this order." });
    expect(refundCalls()).toHaveLength(1);
    await expectDailySalesToAgree();
  });

  it("spreads a discount over the lines: a line gives back what the customer paid for it, never the shipping", async () => {
    // Two $10 cartons with WELCOME10 (10% off a first order) and $10 shipping: each carton cost the customer $9.
    const placed = await placeOrder([["bites-variety", 2]], { discountCode: "WELCOME10" });
    await payOrder(placed.sessionId);
    const orderId = placed.orderId;
    expect(await orderRow(orderId)).toMatchObject({ subtotalCents: 2000, discountCents: 200, totalCents: 2800 });
    const { items } = await orderRow(orderId);
    const preview = await refund({ orderId, preview: true, lines: [{ itemId: items[0]!.id, quantity: 1 }] });
    expect(await readJson<PreviewJson>(preview)).toMatchObject({ amount: 9, left: 28 });
  });
});

describe("refunds made in Stripe's dashboard, part by part", () => {
  it("records each listed refund once with its own amount, however often and in whatever order the events come", async () => {
    const { orderId, paymentIntentId } = await paidOrder();
    const one = { id: "re_dash_one", amount: 1000 };
    const two = { id: "re_dash_two", amount: 500 };
    const first = chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 1000, refunds: [one] });
    const second = chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 1500, refunds: [two, one] });
    for (const event of [second, first, second]) expect((await deliverStripeEvent(event)).status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "paid", refundedCents: 1500 });
    expect((await refundRows(orderId)).map(({ stripeRefundId, amountCents, refundedBy }) => ({ stripeRefundId, amountCents, refundedBy }))).toEqual([
      { stripeRefundId: "re_dash_one", amountCents: 1000, refundedBy: "Stripe" },
      { stripeRefundId: "re_dash_two", amountCents: 500, refundedBy: "Stripe" },
    ]);
    expect(await emails(orderId)).toHaveLength(2);
    await expectDailySalesToAgree();
  });

  it("without a list of refunds, the shop asks Stripe for them: each is recorded under its own id, once", async () => {
    const { orderId, paymentIntentId } = await paidOrder();
    // Two refunds made at Stripe (its dashboard, or an owner's whose record is still being written), then a notice listing neither.
    const one = await refundPayment(orderId, paymentIntentId, { amountCents: 700, key: "dashboard-one" });
    const two = await refundPayment(orderId, paymentIntentId, { amountCents: 300, key: "dashboard-two" });
    for (let time = 0; time < 2; time += 1) {
      expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 1000 }))).status).toBe(200);
    }
    expect((await refundRows(orderId)).map(({ stripeRefundId, amountCents }) => ({ stripeRefundId, amountCents }))).toEqual([
      { stripeRefundId: one.id, amountCents: 700 },
      { stripeRefundId: two.id, amountCents: 300 },
    ]);
    expect(stripeMock.requests.filter((request) => request.method === "GET" && request.path === "/v1/refunds")).toHaveLength(1);
  });

  it("Stripe not answering that question: the notice fails (Stripe delivers it again) and nothing is recorded", async () => {
    const { orderId, paymentIntentId } = await paidOrder();
    await refundPayment(orderId, paymentIntentId, { amountCents: 700, key: "dashboard-one" });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    server.use(http.get(STRIPE_REFUNDS, () => HttpResponse.json({ error: { type: "api_error", message: "Down" } }, { status: 500 })));
    expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 700 }))).status).toBe(500);
    expect(await refundRows(orderId)).toEqual([]);
    server.resetHandlers();
    expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 700 }))).status).toBe(200);
    expect((await refundRows(orderId)).map((row) => row.amountCents)).toEqual([700]);
  });

  it("without a list of refunds from Stripe either, what Stripe says is refunded beyond the shop's record is recorded once", async () => {
    const { orderId, paymentIntentId } = await paidOrder();
    const event = chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 1000 });
    expect((await deliverStripeEvent(event)).status).toBe(200);
    expect((await deliverStripeEvent(chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 1000 }))).status).toBe(200);
    expect((await refundRows(orderId)).map((row) => row.amountCents)).toEqual([1000]);
    expect((await orderRow(orderId)).refundedCents).toBe(1000);
  });

  it("the echo of the owner's partial refund is not a second refund", async () => {
    const { orderId, paymentIntentId } = await paidOrder();
    await refund({ orderId, reason: "One carton melted", amount: 10 });
    const made = stripeMock.refunds()[0]!;
    const echo = chargeRefunded(paymentIntentId, { amount: 4000, refunded: false, amountRefunded: 1000, refunds: [{ id: made.id, amount: 1000 }] });
    expect((await deliverStripeEvent(echo)).status).toBe(200);
    expect(await refundRows(orderId)).toEqual([expect.objectContaining({ amountCents: 1000, reason: "One carton melted" })]);
    expect(await emails(orderId)).toHaveLength(1);
  });
});

describe("a partial refund whose answer does not come", () => {
  it("is kept with its amount, key and lines, and the checker makes exactly that refund once", async () => {
    await db.product.update({ where: { id: "bites-variety" }, data: { stock: 20 } });
    const { orderId, order } = await paidOrder([["bites-variety", 3]]);
    const line = order.items[0]!;
    server.use(http.post(STRIPE_REFUNDS, () => HttpResponse.error()));
    const response = await refund({ orderId, reason: "One soft carton", lines: [{ itemId: line.id, quantity: 1 }], restock: true });
    expect(response.status).toBe(202);
    expect(await orderRow(orderId)).toMatchObject({
      refundRequestedCents: 1000,
      refundRequestKey: `refund-${orderId}-0-1000`,
      refundRequestLines: [{ itemId: line.id, quantity: 1 }],
      refundRequestRestock: true,
    });
    // While it is pending, another refund waits.
    expect((await readJson<RefundJson>(await refund({ orderId, reason: "More", amount: 5 }))).pending).toBe(true);

    server.resetHandlers();
    expect(await settlePendingRefunds()).toBe(1);
    expect(await settlePendingRefunds()).toBe(0);
    const made = refundCalls().filter((call) => call.idempotencyKey === `refund-${orderId}-0-1000`);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(stripeMock.refunds()).toEqual([expect.objectContaining({ amount: 1000 })]);
    expect(await orderRow(orderId)).toMatchObject({
      paymentStatus: "paid",
      refundedCents: 1000,
      refundRequestedAt: null,
      refundRequestKey: null,
      refundReason: null,
    });
    expect(await refundRows(orderId)).toEqual([
      expect.objectContaining({ amountCents: 1000, reason: "One soft carton", refundedBy: owner.email, restocked: true }),
    ]);
    expect(await db.product.findUniqueOrThrow({ where: { id: "bites-variety" }, select: { stock: true } })).toEqual({ stock: 18 });
  });
});

describe("who may refund", () => {
  it("staff may not refund part of an order", async () => {
    const { orderId } = await paidOrder();
    const response = await refund({ orderId, reason: "Goodwill", amount: 5 }, staff.cookie);
    expect(response.status).toBe(403);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: OWNER_ONLY_MESSAGE });
    expect(refundCalls()).toEqual([]);
  });
});
