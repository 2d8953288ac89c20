import type { HttpHandler } from "msw";
import qs from "qs";
import {
  allSessions,
  expireSession,
  findSession,
  findSessionByPaymentIntent,
  forgetSessions,
  openSession,
  paySession,
  standInId,
  type MockSession,
} from "./payment-stand-in.server";

export type { MockSession };
import { STRIPE_DOWN_TAG, STRIPE_SLOW_REFUND_TAG } from "./test-scenarios";

/**
 * A stand-in for the parts of the Stripe API the shop uses: coupons,
 * Checkout Sessions (create, retrieve, expire) and refunds, whole or part, honouring
 * idempotency keys. A session whose total is $0 (a 100% code) is completed
 * without a card, as Stripe's no-cost orders are: payment_status
 * "no_payment_required" and no PaymentIntent.
 *
 * Checkout Sessions live in the database (mocks/payment-stand-in.server.ts,
 * which the hosted payment page mocks/payment-page.tsx
 * reads too). Coupons, refunds and idempotency keys stay in memory: the shop
 * creates a coupon and its session in one request, and the SDK retries a
 * request from the process that sent it, which is the process whose MSW
 * answers it (the shop itself never asks twice for the refund of an order it
 * has marked refunded). Only the stand-ins (MOCKS=true) and the tests load
 * this file.
 */

export const STRIPE_API = "https://api.stripe.com/v1";

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
/** Refunds by their PaymentIntent, oldest first: never more in all than the payment. */
const refunds = new Map<string, MockRefund[]>();
const idempotent = new Map<string, Promise<unknown>>();
/** How many late answers each slow refund's idempotency key has had (the testers' STRIPE_SLOW_REFUND_TAG). */
const lateRefundAnswers = new Map<string, number>();
/** The shop's try and the Stripe library's one retry (maxNetworkRetries in app/services/stripe.server.ts): both answered late. */
const LATE_REFUND_ANSWERS = 2;

const toUnixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export const stripeMock = {
  /** Every request this process's stand-in answered, for tests to inspect. */
  requests: [] as { method: string; path: string; body: Form; idempotencyKey: string | null }[],
  /** Forgets every session, coupon, idempotency key and request (between tests). */
  async reset() {
    coupons.clear();
    refunds.clear();
    idempotent.clear();
    lateRefundAnswers.clear();
    stripeMock.requests.length = 0;
    await forgetSessions();
  },
  /** A Checkout Session as Stripe would answer it, or null when there is no such session. */
  session: findSession,
  /** Every Checkout Session, oldest first. */
  allSessions,
  /** What paying on the hosted page does to the session (see paySession). */
  pay: paySession,
  /** The refunds this process's stand-in made, oldest first. */
  refunds() {
    return [...refunds.values()].flat().sort((a, b) => a.created - b.created);
  },
  /** What Stripe does when a payment page's time runs out: the open session expires. Null when it was not open. */
  async timeOut(sessionId: string) {
    const { moved, session } = await expireSession(sessionId);
    return moved ? session : null;
  },
};

/** An error as Stripe answers it: its status and the body's `error`. */
type StripeError = { status: number; error: { type: "invalid_request_error"; message: string; code?: string } };

function stripeError(status: number, message: string, code?: string): StripeError {
  return { status, error: { type: "invalid_request_error", message, ...(code && { code }) } };
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
  const lineItems = ((body.line_items as Form[] | undefined) ?? []).map((item) => {
    const price = (item.price_data ?? {}) as Form;
    return {
      name: String(((price.product_data ?? {}) as Form).name ?? "Item"),
      quantity: int(item.quantity),
      unit_amount: int(price.unit_amount),
    };
  });
  const subtotal = lineItems.reduce((sum, item) => sum + item.quantity * item.unit_amount, 0);
  const shippingOption = ((body.shipping_options as Form[] | undefined) ?? [])[0] as Form | undefined;
  const couponId = (((body.discounts as Form[] | undefined) ?? [])[0] as Form | undefined)?.coupon;
  return openSession({
    customerEmail: body.customer_email ? String(body.customer_email) : null,
    clientReferenceId: body.client_reference_id ? String(body.client_reference_id) : null,
    metadata: (body.metadata as Record<string, string> | undefined) ?? {},
    lineItems,
    amountDiscount: Math.min(subtotal, couponId ? (coupons.get(String(couponId))?.amount_off ?? 0) : 0),
    amountShipping: int((((shippingOption?.shipping_rate_data ?? {}) as Form).fixed_amount as Form | undefined)?.amount),
    successUrl: String(body.success_url ?? ""),
    cancelUrl: String(body.cancel_url ?? ""),
    expiresAt: body.expires_at ? new Date(int(body.expires_at) * 1000) : new Date(Date.now() + 24 * 60 * 60 * 1000),
  });
}

/**
 * A refund of a paid session's PaymentIntent: `amount` cents, or what is left
 * of it without one. As Stripe, it refuses a refunded payment and an amount
 * larger than what is left.
 */
async function createRefund(body: Form) {
  const paymentIntent = String(body.payment_intent ?? "");
  const paid = paymentIntent ? await findSessionByPaymentIntent(paymentIntent) : null;
  if (!paid) return { error: stripeError(400, `No such payment_intent: '${paymentIntent}'`, "resource_missing") };
  const earlier = refunds.get(paymentIntent) ?? [];
  const left = paid.amount_total - earlier.reduce((sum, refund) => sum + refund.amount, 0);
  if (left <= 0) return { error: stripeError(400, "Charge has already been refunded.", "charge_already_refunded") };
  const amount = body.amount === undefined ? left : int(body.amount);
  if (amount <= 0) return { error: stripeError(400, "Invalid positive integer", "parameter_invalid_integer") };
  if (amount > left) {
    return {
      error: stripeError(400, `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`),
    };
  }
  const refund: MockRefund = {
    id: standInId("re"),
    object: "refund",
    amount,
    currency: "usd",
    payment_intent: paymentIntent,
    charge: `ch_${paymentIntent.slice(3)}`,
    status: "succeeded",
    metadata: (body.metadata as Record<string, string> | undefined) ?? {},
    created: toUnixSeconds(new Date()),
  };
  refunds.set(paymentIntent, [...earlier, refund]);
  return { refund, slow: paid.customer_email?.includes(STRIPE_SLOW_REFUND_TAG) ?? false };
}

/**
 * The testers' slow refund: the first answers for its key wait until the
 * shop has given up on the request (its timeout aborts it), as a slow Stripe
 * that made the refund all the same.
 */
async function answerLateIfSlow(request: Request, slow: boolean) {
  const key = request.headers.get("Idempotency-Key");
  if (!slow || !key) return;
  const late = lateRefundAnswers.get(key) ?? 0;
  if (late >= LATE_REFUND_ANSWERS) return;
  lateRefundAnswers.set(key, late + 1);
  if (!request.signal.aborted) await new Promise((resolve) => request.signal.addEventListener("abort", resolve, { once: true }));
}

/**
 * The stand-in's request handlers. MSW is imported here, when the stand-ins
 * start, and nowhere at the top of a module: the server bundle hoists every
 * static import of a package to its top, so one would load MSW (about 28 MB)
 * into every production server, which never uses it.
 */
export async function stripeHandlers(): Promise<HttpHandler[]> {
  const { http, HttpResponse } = await import("msw");
  const answerError = ({ status, error }: StripeError) => HttpResponse.json({ error }, { status });
  return [
    http.post(`${STRIPE_API}/coupons`, async ({ request }) => {
      const body = await readForm(request);
      record(request, body);
      const coupon = await once(request, async () => {
        const created = { id: standInId("coupon"), object: "coupon", amount_off: int(body.amount_off), currency: "usd" };
        coupons.set(created.id, created);
        return created;
      });
      return HttpResponse.json(coupon);
    }),

    http.post(`${STRIPE_API}/checkout/sessions`, async ({ request }) => {
      const body = await readForm(request);
      record(request, body);
      if (!body.success_url || !body.cancel_url) return answerError(stripeError(400, "success_url and cancel_url are required"));
      // The testers' "Stripe is unavailable" trigger (mocks/test-scenarios.ts): answered as Stripe answers an outage.
      if (String(body.customer_email ?? "").includes(STRIPE_DOWN_TAG)) {
        return HttpResponse.json({ error: { type: "api_error", message: "Stripe is unavailable (test trigger)." } }, { status: 503 });
      }
      return HttpResponse.json(await once(request, () => createSession(body)));
    }),

    http.get(`${STRIPE_API}/checkout/sessions/:id`, async ({ request, params }) => {
      record(request, {});
      const session = await findSession(String(params.id));
      return session ? HttpResponse.json(session) : answerError(stripeError(404, `No such checkout.session: '${String(params.id)}'`));
    }),

    http.post(`${STRIPE_API}/checkout/sessions/:id/expire`, async ({ request, params }) => {
      record(request, {});
      const sessionId = String(params.id);
      const { moved, session } = await expireSession(sessionId);
      if (!session) return answerError(stripeError(404, `No such checkout.session: '${sessionId}'`));
      if (!moved) return answerError(stripeError(400, "Only Checkout Sessions with a status in [open] can be expired."));
      return HttpResponse.json(session);
    }),

    http.get(`${STRIPE_API}/refunds`, ({ request }) => {
      record(request, {});
      const paymentIntent = new URL(request.url).searchParams.get("payment_intent") ?? "";
      const data = [...(refunds.get(paymentIntent) ?? [])].reverse();
      return HttpResponse.json({ object: "list", url: "/v1/refunds", has_more: false, data });
    }),

    http.post(`${STRIPE_API}/refunds`, async ({ request }) => {
      const body = await readForm(request);
      record(request, body);
      // A refused refund is answered the same to a repeated key, as Stripe does for a 4xx.
      const outcome = await once(request, () => createRefund(body));
      if (outcome.error) return answerError(outcome.error);
      await answerLateIfSlow(request, outcome.slow);
      return HttpResponse.json(outcome.refund);
    }),
  ];
}
