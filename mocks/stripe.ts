import { randomBytes } from "node:crypto";
import { http, HttpResponse } from "msw";
import qs from "qs";

/**
 * A stand-in for the parts of the Stripe API the shop uses: coupons and
 * Checkout Sessions (create, retrieve, expire), honouring idempotency keys.
 * Its hosted payment page is app/routes/mock-stripe.pay.$sessionId.tsx.
 */

export const STRIPE_API = "https://api.stripe.com/v1";

export type MockSession = {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
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
};

type Form = Record<string, unknown>;

const sessions = new Map<string, MockSession>();
const coupons = new Map<string, { id: string; amount_off: number }>();
const idempotent = new Map<string, unknown>();

export const stripeMock = {
  sessions,
  /** Every request the stand-in answered, for tests to inspect. */
  requests: [] as { method: string; path: string; body: Form; idempotencyKey: string | null }[],
  reset() {
    sessions.clear();
    coupons.clear();
    idempotent.clear();
    stripeMock.requests.length = 0;
  },
  /** What paying on the hosted page does to the session. */
  pay(sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) return null;
    session.payment_status = "paid";
    session.status = "complete";
    return session;
  },
};

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

function stripeError(status: number, message: string) {
  return HttpResponse.json({ error: { type: "invalid_request_error", message } }, { status });
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

/** Replays the first answer for a repeated idempotency key, as Stripe does. */
function once<T>(request: Request, make: () => T): T {
  const key = request.headers.get("Idempotency-Key");
  if (!key) return make();
  if (!idempotent.has(key)) idempotent.set(key, make());
  return idempotent.get(key) as T;
}

const int = (value: unknown) => Number.parseInt(String(value ?? "0"), 10) || 0;

function createSession(body: Form): MockSession {
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
  const session: MockSession = {
    id: sessionId,
    object: "checkout.session",
    mode: "payment",
    status: "open",
    payment_status: "unpaid",
    currency: "usd",
    customer_email: body.customer_email ? String(body.customer_email) : null,
    client_reference_id: body.client_reference_id ? String(body.client_reference_id) : null,
    metadata: (body.metadata as Record<string, string> | undefined) ?? {},
    amount_subtotal: subtotal,
    amount_total: subtotal - discount + shipping,
    total_details: { amount_discount: discount, amount_shipping: shipping, amount_tax: 0 },
    line_items: items,
    success_url: successUrl,
    cancel_url: String(body.cancel_url ?? ""),
    url: `${new URL(successUrl).origin}/mock-stripe/pay/${sessionId}`,
    created: Math.floor(Date.now() / 1000),
    expires_at: body.expires_at ? int(body.expires_at) : Math.floor(Date.now() / 1000) + 24 * 60 * 60,
  };
  sessions.set(sessionId, session);
  return session;
}

export const stripeHandlers = [
  http.post(`${STRIPE_API}/coupons`, async ({ request }) => {
    const body = await readForm(request);
    record(request, body);
    const coupon = once(request, () => {
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
    return HttpResponse.json(once(request, () => createSession(body)));
  }),

  http.get(`${STRIPE_API}/checkout/sessions/:id`, ({ request, params }) => {
    record(request, {});
    const session = sessions.get(String(params.id));
    return session ? HttpResponse.json(session) : stripeError(404, `No such checkout.session: '${String(params.id)}'`);
  }),

  http.post(`${STRIPE_API}/checkout/sessions/:id/expire`, ({ request, params }) => {
    record(request, {});
    const session = sessions.get(String(params.id));
    if (!session) return stripeError(404, `No such checkout.session: '${String(params.id)}'`);
    // As Stripe: only an open session can be expired.
    if (session.status !== "open") return stripeError(400, "Only Checkout Sessions with a status in [open] can be expired.");
    session.status = "expired";
    return HttpResponse.json(session);
  }),
];
