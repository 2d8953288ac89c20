import { randomBytes } from "node:crypto";
import { http, HttpResponse } from "msw";
import qs from "qs";
// Relative paths, not ~/: Remix empties a .server module in the browser build
// only when the importer's folder joined with the path as written lies in
// app/, which "~/…" from mocks/ does not; the payment page route imports this
// file, so db.server would pull Prisma into the browser build.
import type { MockCheckoutSession } from "../app/generated/prisma/client";
import { db } from "../app/utils/db.server";

/**
 * A stand-in for the parts of the Stripe API the shop uses: coupons,
 * Checkout Sessions (create, retrieve, expire) and full refunds, honouring
 * idempotency keys. A session whose total is $0 (a 100% code) is completed
 * without a card, as Stripe's no-cost orders are: payment_status
 * "no_payment_required" and no PaymentIntent.
 * Its hosted payment page is app/routes/mock-stripe.pay.$sessionId.tsx.
 *
 * Checkout Sessions live in the database (MockCheckoutSession), not in this
 * process: the payment page, the webhook and verify-payment may be served by
 * another instance than the one that created the session, or after a restart.
 * Coupons, refunds and idempotency keys stay in memory: the shop creates a
 * coupon and its session in one request, and the SDK retries a request from
 * the process that sent it, which is the process whose MSW answers it (the
 * shop itself never asks twice for the refund of an order it has marked refunded).
 */

export const STRIPE_API = "https://api.stripe.com/v1";

export type MockSession = {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  currency: "usd";
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  amount_subtotal: number;
  amount_total: number;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  line_items: { name: string; quantity: number; unit_amount: number }[];
  success_url: string;
  cancel_url: string;
  url: string;
  created: number;
  expires_at: number;
  /** Set once the session is paid, as Stripe does; a $0 session never has one. */
  payment_intent: string | null;
};

export type MockRefund = {
  id: string;
  object: "refund";
  amount: number;
  currency: "usd";
  payment_intent: string;
  charge: string;
  status: "succeeded";
  metadata: Record<string, string>;
  created: number;
};

type Form = Record<string, unknown>;

const coupons = new Map<string, { id: string; amount_off: number }>();
/** Refunds by their PaymentIntent: the stand-in refunds in full, so there is at most one each. */
const refunds = new Map<string, MockRefund>();
const idempotent = new Map<string, Promise<unknown>>();

const toUnixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A stored session as Stripe's JSON. Only this module writes the rows, so their statuses are Stripe's. */
function toStripeJson(row: MockCheckoutSession): MockSession {
  return {
    id: row.id,
    object: "checkout.session",
    mode: "payment",
    status: row.status as MockSession["status"],
    payment_status: row.paymentStatus as MockSession["payment_status"],
    currency: "usd",
    customer_email: row.customerEmail,
    client_reference_id: row.clientReferenceId,
    metadata: JSON.parse(row.metadata) as MockSession["metadata"],
    amount_subtotal: row.amountSubtotal,
    amount_total: row.amountTotal,
    total_details: { amount_discount: row.amountDiscount, amount_shipping: row.amountShipping, amount_tax: 0 },
    line_items: JSON.parse(row.lineItems) as MockSession["line_items"],
    success_url: row.successUrl,
    cancel_url: row.cancelUrl,
    url: row.url,
    created: toUnixSeconds(row.createdAt),
    expires_at: toUnixSeconds(row.expiresAt),
    payment_intent: row.paymentIntent,
  };
}

async function findSession(sessionId: string) {
  const row = await db.mockCheckoutSession.findUnique({ where: { id: sessionId } });
  return row ? toStripeJson(row) : null;
}

/**
 * Moves an open session on (paid, or expired), as Stripe allows only from
 * "open". Conditional, so that of a payment and an expiry, or two of either,
 * at the same moment on any instance, one wins whole. Answers whether this
 * call moved it, and the session as it now stands (null when there is none).
 */
async function leaveOpen(
  sessionId: string,
  data: { status: "complete" | "expired"; paymentStatus?: "paid" | "no_payment_required"; paymentIntent?: string },
) {
  const { count } = await db.mockCheckoutSession.updateMany({ where: { id: sessionId, status: "open" }, data });
  return { moved: count === 1, session: await findSession(sessionId) };
}

export const stripeMock = {
  /** Every request this process's stand-in answered, for tests to inspect. */
  requests: [] as { method: string; path: string; body: Form; idempotencyKey: string | null }[],
  /** Forgets every session, coupon, idempotency key and request (between tests). */
  async reset() {
    coupons.clear();
    refunds.clear();
    idempotent.clear();
    stripeMock.requests.length = 0;
    await db.mockCheckoutSession.deleteMany();
  },
  /** A Checkout Session as Stripe would answer it, or null when there is no such session. */
  session: findSession,
  /** Every Checkout Session, oldest first. */
  async allSessions() {
    const rows = await db.mockCheckoutSession.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map(toStripeJson);
  },
  /**
   * What paying on the hosted page does to the session: the paid session, or
   * null when there is none or it is no longer open. Only one of several
   * payments at once (from any instance) finds it open. A $0 session is
   * completed with no payment, as Stripe completes a no-cost order.
   */
  async pay(sessionId: string) {
    const open = await findSession(sessionId);
    if (!open) return null;
    const completion =
      open.amount_total === 0
        ? ({ status: "complete", paymentStatus: "no_payment_required" } as const)
        : ({ status: "complete", paymentStatus: "paid", paymentIntent: id("pi") } as const);
    const { moved, session } = await leaveOpen(sessionId, completion);
    return moved ? session : null;
  },
  /** The refunds this process's stand-in made, oldest first. */
  refunds() {
    return [...refunds.values()];
  },
  /** What Stripe does when a payment page's time runs out: the open session expires. Null when it was not open. */
  async timeOut(sessionId: string) {
    const { moved, session } = await leaveOpen(sessionId, { status: "expired" });
    return moved ? session : null;
  },
};

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

function stripeError(status: number, message: string, code?: string) {
  return HttpResponse.json({ error: { type: "invalid_request_error", message, ...(code && { code }) } }, { status });
}

async function readForm(request: Request): Promise<Form> {
  return qs.parse(await request.text()) as Form;
}

function record(request: Request, body: Form) {
  stripeMock.requests.push({
    method: request.method,
    path: new URL(request.url).pathname,
    body,
    idempotencyKey: request.headers.get("Idempotency-Key"),
  });
}

/** Replays the first answer for a repeated idempotency key, as Stripe does; a failed one is not kept. */
function once<T>(request: Request, make: () => Promise<T>): Promise<T> {
  const key = request.headers.get("Idempotency-Key");
  if (!key) return make();
  const earlier = idempotent.get(key) as Promise<T> | undefined;
  if (earlier) return earlier;
  const answer = make();
  idempotent.set(key, answer);
  answer.catch(() => idempotent.delete(key));
  return answer;
}

const int = (value: unknown) => Number.parseInt(String(value ?? "0"), 10) || 0;

async function createSession(body: Form): Promise<MockSession> {
  const lineItems = (body.line_items as Form[] | undefined) ?? [];
  const items = lineItems.map((item) => {
    const price = (item.price_data ?? {}) as Form;
    return {
      name: String(((price.product_data ?? {}) as Form).name ?? "Item"),
      quantity: int(item.quantity),
      unit_amount: int(price.unit_amount),
    };
  });
  const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unit_amount, 0);
  const shippingOption = ((body.shipping_options as Form[] | undefined) ?? [])[0] as Form | undefined;
  const shipping = int((((shippingOption?.shipping_rate_data ?? {}) as Form).fixed_amount as Form | undefined)?.amount);
  const couponId = (((body.discounts as Form[] | undefined) ?? [])[0] as Form | undefined)?.coupon;
  const discount = Math.min(subtotal, couponId ? (coupons.get(String(couponId))?.amount_off ?? 0) : 0);
  const sessionId = id("cs");
  const successUrl = String(body.success_url ?? "");
  const now = Date.now();
  const row = await db.mockCheckoutSession.create({
    data: {
      id: sessionId,
      status: "open",
      paymentStatus: "unpaid",
      customerEmail: body.customer_email ? String(body.customer_email) : null,
      clientReferenceId: body.client_reference_id ? String(body.client_reference_id) : null,
      metadata: JSON.stringify(body.metadata ?? {}),
      amountSubtotal: subtotal,
      amountDiscount: discount,
      amountShipping: shipping,
      amountTotal: subtotal - discount + shipping,
      lineItems: JSON.stringify(items),
      successUrl,
      cancelUrl: String(body.cancel_url ?? ""),
      url: `${new URL(successUrl).origin}/mock-stripe/pay/${sessionId}`,
      createdAt: new Date(now),
      expiresAt: body.expires_at ? new Date(int(body.expires_at) * 1000) : new Date(now + 24 * 60 * 60 * 1000),
    },
  });
  return toStripeJson(row);
}

/** A full refund of a paid session's PaymentIntent, once: Stripe refuses to refund a refunded payment again. */
async function createRefund(body: Form) {
  const paymentIntent = String(body.payment_intent ?? "");
  const row = paymentIntent ? await db.mockCheckoutSession.findFirst({ where: { paymentIntent } }) : null;
  if (!row) return { error: stripeError(400, `No such payment_intent: '${paymentIntent}'`, "resource_missing") };
  if (refunds.has(paymentIntent)) return { error: stripeError(400, "Charge has already been refunded.", "charge_already_refunded") };
  const refund: MockRefund = {
    id: id("re"),
    object: "refund",
    amount: row.amountTotal,
    currency: "usd",
    payment_intent: paymentIntent,
    charge: `ch_${paymentIntent.slice(3)}`,
    status: "succeeded",
    metadata: (body.metadata as Record<string, string> | undefined) ?? {},
    created: toUnixSeconds(new Date()),
  };
  refunds.set(paymentIntent, refund);
  return { refund };
}

export const stripeHandlers = [
  http.post(`${STRIPE_API}/coupons`, async ({ request }) => {
    const body = await readForm(request);
    record(request, body);
    const coupon = await once(request, async () => {
      const created = { id: id("coupon"), object: "coupon", amount_off: int(body.amount_off), currency: "usd" };
      coupons.set(created.id, created);
      return created;
    });
    return HttpResponse.json(coupon);
  }),

  http.post(`${STRIPE_API}/checkout/sessions`, async ({ request }) => {
    const body = await readForm(request);
    record(request, body);
    if (!body.success_url || !body.cancel_url) return stripeError(400, "success_url and cancel_url are required");
    return HttpResponse.json(await once(request, () => createSession(body)));
  }),

  http.get(`${STRIPE_API}/checkout/sessions/:id`, async ({ request, params }) => {
    record(request, {});
    const session = await findSession(String(params.id));
    return session ? HttpResponse.json(session) : stripeError(404, `No such checkout.session: '${String(params.id)}'`);
  }),

  http.post(`${STRIPE_API}/checkout/sessions/:id/expire`, async ({ request, params }) => {
    record(request, {});
    const sessionId = String(params.id);
    const { moved, session } = await leaveOpen(sessionId, { status: "expired" });
    if (!session) return stripeError(404, `No such checkout.session: '${sessionId}'`);
    if (!moved) return stripeError(400, "Only Checkout Sessions with a status in [open] can be expired.");
    return HttpResponse.json(session);
  }),

  http.post(`${STRIPE_API}/refunds`, async ({ request }) => {
    const body = await readForm(request);
    record(request, body);
    // A refused refund is answered the same to a repeated key, as Stripe does for a 4xx.
    const outcome = await once(request, () => createRefund(body));
    return outcome.error ? outcome.error.clone() : HttpResponse.json(outcome.refund);
  }),
];
