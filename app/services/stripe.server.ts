import Stripe from "stripe";
import { env } from "~/utils/env.server";
import { describeError } from "~/utils/errors.server";
import { timeOutsideCall } from "~/utils/metrics.server";

/**
 * Stripe Checkout: the hosted payment page and its signed webhook. In the demo
 * (MOCKS) the SDK talks to the MSW stand-in in mocks/stripe.ts; with
 * STRIPE_API_URL it talks to any Stripe-compatible server.
 */

/** The stand-in's secret; only ever used when MOCKS is on. */
export const MOCK_WEBHOOK_SECRET = "whsec_chillpb_mock_secret";

/**
 * How long a payment page stays open. An unpaid order holds its discount code
 * until then, so it is kept short: Stripe's own minimum is 30 minutes.
 */
export const PAYMENT_WINDOW_SECONDS = 60 * 60;

let client: Stripe | undefined;

/** What a Checkout Session id looks like: anything else is refused before Stripe is asked. */
export const CHECKOUT_SESSION_ID = /^cs_[A-Za-z0-9_]{1,200}$/;

export function stripeConfigured() {
  return Boolean(env.STRIPE_SECRET_KEY) || env.MOCKS;
}

export function webhookSecret() {
  return env.STRIPE_WEBHOOK_SECRET ?? (env.MOCKS ? MOCK_WEBHOOK_SECRET : undefined);
}

/**
 * The Stripe-Signature header Stripe would send with `payload`, made with the
 * SDK's own test helper: the demo's payment page (mocks/payment-page.tsx)
 * signs the webhook it sends with it. Here, so that the page's browser
 * bundle does not carry the SDK.
 */
export function testWebhookSignature(payload: string) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: env.STRIPE_WEBHOOK_SECRET ?? MOCK_WEBHOOK_SECRET });
}

export function stripe(): Stripe {
  if (client) return client;
  const key = env.STRIPE_SECRET_KEY ?? (env.MOCKS ? "sk_test_chillpb_mock" : undefined);
  if (!key) throw new Error("STRIPE_SECRET_KEY is not set");
  const override = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null;
  client = new Stripe(key, {
    // fetch, so the MSW stand-in and tests see every request.
    httpClient: Stripe.createFetchHttpClient(),
    timeout: env.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 1,
    appInfo: { name: "chillpb-shop" },
    ...(override && {
      host: override.hostname,
      port: override.port || (override.protocol === "https:" ? 443 : 80),
      protocol: override.protocol === "http:" ? "http" : "https",
    }),
  });
  return client;
}

export type SessionOrder = {
  id: string;
  email: string;
  discountCode: string | null;
  discountCents: number;
  shippingCents: number;
  items: { name: string; unitPriceCents: number; quantity: number }[];
  /** The delivery day and window in words: "Thursday, December 3, 9am–12pm". */
  deliveryWhen: string;
};

export async function createCheckoutSession(order: SessionOrder, origin: string) {
  const api = stripe();
  // One coupon per order, for exactly our discount: Stripe applies coupons to
  // the items only, so the session's total is subtotal - discount + shipping.
  const coupon =
    order.discountCents > 0
      ? await timeOutsideCall("stripe", "coupons.create", () =>
          api.coupons.create(
            {
              amount_off: order.discountCents,
              currency: "usd",
              duration: "once",
              max_redemptions: 1,
              name: order.discountCode ?? "Discount",
            },
            { idempotencyKey: `coupon-${order.id}` },
          ),
        )
      : null;

  return timeOutsideCall("stripe", "checkout.sessions.create", () =>
    api.checkout.sessions.create(
      {
        mode: "payment",
        customer_email: order.email,
        client_reference_id: order.id,
        metadata: { orderId: order.id, delivery: order.deliveryWhen },
        payment_intent_data: { metadata: { orderId: order.id } },
        line_items: order.items.map((item) => ({
          quantity: item.quantity,
          price_data: { currency: "usd", unit_amount: item.unitPriceCents, product_data: { name: item.name } },
        })),
        shipping_options: [
          {
            shipping_rate_data: {
              type: "fixed_amount",
              display_name: `${order.shippingCents > 0 ? "Frozen local delivery" : "Free frozen local delivery"}: ${order.deliveryWhen}`,
              fixed_amount: { amount: order.shippingCents, currency: "usd" },
            },
          },
        ],
        ...(coupon && { discounts: [{ coupon: coupon.id }] }),
        expires_at: Math.floor(Date.now() / 1000) + PAYMENT_WINDOW_SECONDS,
        success_url: `${origin}/order-success?session_id={CHECKOUT_SESSION_ID}`,
        // The cart and the filled form come back from the order this browser placed (its cart cookie), never from the URL.
        cancel_url: `${origin}/checkout?cancelled=true`,
      },
      { idempotencyKey: `checkout-${order.id}` },
    ),
  );
}

function retrieveCheckoutSession(sessionId: string) {
  return timeOutsideCall("stripe", "checkout.sessions.retrieve", () => stripe().checkout.sessions.retrieve(sessionId));
}

/**
 * Whether a payment page is closed. ok: it is expired (now or before);
 * "paid": too late, the customer has paid; "unreachable": Stripe could not be
 * asked, so the page may still be open.
 */
export type PageClosing = { ok: true } | { ok: false; reason: "paid" | "unreachable" };

/** Closes a payment page so it can no longer be paid. */
export async function closeCheckoutSession(sessionId: string): Promise<PageClosing> {
  try {
    await timeOutsideCall("stripe", "checkout.sessions.expire", () => stripe().checkout.sessions.expire(sessionId));
    return { ok: true };
  } catch (error) {
    try {
      // Stripe refuses to expire a session that is complete or already expired.
      const session = await retrieveCheckoutSession(sessionId);
      if (session.status === "expired") return { ok: true };
      if (session.status === "complete") return { ok: false, reason: "paid" };
    } catch {
      // Reported below with the first error.
    }
    console.error(`Could not close Checkout Session ${sessionId}: ${describeError(error)}`);
    return { ok: false, reason: "unreachable" };
  }
}

/** What the shop reads of a Checkout Session to know whether its order is settled. */
export type SessionPayment = { status?: string | null; payment_status?: string | null; amount_total?: number | null };

/**
 * Whether a Checkout Session's order may be fulfilled: it is paid, or it is a
 * completed $0 session (a 100% code). Stripe completes a no-cost order without
 * taking a payment: payment_status "no_payment_required" and no PaymentIntent
 * (decision 025). Only complete and only $0, so that nothing else that says
 * "no payment required" can confirm an order that costs money.
 */
export function isCheckoutSessionPaid(session: SessionPayment) {
  if (session.payment_status === "paid") return true;
  return session.payment_status === "no_payment_required" && session.status === "complete" && session.amount_total === 0;
}

/** The PaymentIntent (pi_…) of a Checkout Session as Stripe sends it: an id, an expanded object, or none yet. */
export function paymentIntentIdOf(session: { payment_intent?: string | { id: string } | null }) {
  const intent = session.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

/** Asks Stripe for a paid session's PaymentIntent (orders paid before the shop stored it). */
export async function findPaymentIntentId(sessionId: string) {
  return paymentIntentIdOf(await retrieveCheckoutSession(sessionId));
}

/**
 * Refunds `amountCents` of a PaymentIntent (decision 066). The idempotency
 * key is the shop's for this one refund (refundKey in
 * app/models/refunds.server.ts), so a repeated or retried call (another
 * instance, a crash before the shop wrote the refund down, the pending
 * refund's checker) gets the same refund back instead of a second one.
 */
export function refundPayment(orderId: string, paymentIntentId: string, { amountCents, key }: { amountCents: number; key: string }) {
  return timeOutsideCall("stripe", "refunds.create", () =>
    stripe().refunds.create({ payment_intent: paymentIntentId, amount: amountCents, metadata: { orderId } }, { idempotencyKey: key }),
  );
}

/**
 * The refunds of a PaymentIntent with their amounts, newest first: for a
 * charge.refunded event that lists none, so that each refund is recorded
 * under its own id (decision 066). Failed and cancelled refunds gave nothing back and are left out.
 */
export async function listRefunds(paymentIntentId: string): Promise<{ id: string; amount: number }[]> {
  const page = await timeOutsideCall("stripe", "refunds.list", () => stripe().refunds.list({ payment_intent: paymentIntentId, limit: 100 }));
  return page.data.filter((refund) => refund.status !== "failed" && refund.status !== "canceled").map((refund) => ({ id: refund.id, amount: refund.amount }));
}

/**
 * A Stripe call that got no answer: it timed out or its connection dropped
 * (the SDK's StripeConnectionError, after its own retry). Stripe may have
 * done what was asked or not; only asking again (with the same idempotency
 * key) tells. Any answer from Stripe, an error included, is not this.
 */
export function isOutcomeUnknown(error: unknown) {
  return error instanceof Stripe.errors.StripeConnectionError;
}

/**
 * Stripe answered and refused: a 4xx other than 409 (the idempotency key is
 * in use by a request still under way) and 429 (too many requests), so the
 * same request would be refused again. A 5xx or no answer may go another way
 * next time, and is not this.
 */
export function isRefusedByStripe(error: unknown): error is InstanceType<typeof Stripe.errors.StripeError> {
  if (!(error instanceof Stripe.errors.StripeError) || typeof error.statusCode !== "number") return false;
  return error.statusCode >= 400 && error.statusCode < 500 && error.statusCode !== 409 && error.statusCode !== 429;
}

/** Stripe refused a refund because the payment was already refunded in full (e.g. from its dashboard). */
export function isAlreadyRefunded(error: unknown) {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "charge_already_refunded";
}

/** Verifies the webhook's signature over the raw body; throws when it does not match. */
export function verifyWebhookEvent(rawBody: string, signature: string | null) {
  const secret = webhookSecret();
  if (!secret) throw new Error("STRIPE_WEBHOOK_SECRET is not set");
  if (!signature) throw new Error("No Stripe-Signature header");
  return stripe().webhooks.constructEvent(rawBody, signature, secret);
}

/**
 * Checkout Session answers kept for verification (verify-payment and
 * /order-success), so that reloading a page or repeating a request does not
 * ask Stripe each time. A settled answer (paid, a completed $0 session, or expired) cannot change, so
 * it is kept SESSION_CACHE_MS; one that still can (open, or complete but not
 * yet paid) only SESSION_CACHE_UNSETTLED_MS, enough to merge a burst. A
 * request under way is shared; a failed one is not kept. Only for
 * verification: closing a payment page must see Stripe's current answer, so
 * closeCheckoutSession keeps asking retrieveCheckoutSession.
 */
export const SESSION_CACHE_MS = 10_000;
export const SESSION_CACHE_UNSETTLED_MS = 2_000;
const SESSION_CACHE_MAX_ENTRIES = 1_000;

type RetrievedSession = ReturnType<typeof retrieveCheckoutSession>;
type CachedSession = { expiresAt: number; session: RetrievedSession };

const sessionCache = new Map<string, CachedSession>();

/** retrieveCheckoutSession, answered from the short-lived cache above when it can be. */
export function retrieveCheckoutSessionCached(sessionId: string): RetrievedSession {
  const now = Date.now();
  const cached = sessionCache.get(sessionId);
  if (cached && cached.expiresAt > now) return cached.session;
  sessionCache.delete(sessionId);

  const entry: CachedSession = { expiresAt: now + SESSION_CACHE_MS, session: retrieveCheckoutSession(sessionId) };
  makeRoomInSessionCache(now);
  sessionCache.set(sessionId, entry);
  entry.session.then(
    (session) => {
      const settled = isCheckoutSessionPaid(session) || session.status === "expired";
      if (!settled) entry.expiresAt = Math.min(entry.expiresAt, Date.now() + SESSION_CACHE_UNSETTLED_MS);
    },
    () => {
      if (sessionCache.get(sessionId) === entry) sessionCache.delete(sessionId);
    },
  );
  return entry.session;
}

/** Drops expired answers; when still full, the oldest (a Map keeps insertion order). */
function makeRoomInSessionCache(now: number) {
  if (sessionCache.size < SESSION_CACHE_MAX_ENTRIES) return;
  for (const [id, entry] of sessionCache) if (entry.expiresAt <= now) sessionCache.delete(id);
  for (const id of sessionCache.keys()) {
    if (sessionCache.size < SESSION_CACHE_MAX_ENTRIES) break;
    sessionCache.delete(id);
  }
}

/** Forgets every cached Checkout Session answer (tests). */
export function clearCheckoutSessionCache() {
  sessionCache.clear();
}
