import type { MockCheckoutSession } from "../app/generated/prisma/client";
import { db } from "../app/utils/db.server";

/**
 * The demo's payment stand-in (MOCKS=true): its Checkout Sessions, kept in
 * the database (MockCheckoutSession) rather than in a process, since the
 * payment page, the webhook and verify-payment may be served by another
 * instance than the one that created the session, or after a restart.
 *
 * Its hosted payment page (mocks/payment-page.tsx) and the
 * MSW handlers that answer the shop's Stripe calls (mocks/stripe.ts) both
 * read and move sessions through this module. It loads no MSW: a production
 * build, which never starts the stand-ins, must not pay for MSW either.
 */

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

/**
 * A Checkout Session as Stripe would answer it, or null when there is no such
 * session. Stripe expires an open session at its expires_at; the stand-in
 * does it when the session is next looked at, so a page past its hour can no
 * longer be paid and the shop (its reconciliation, or a return to the page)
 * finds it expired, as with Stripe.
 */
export async function findSession(sessionId: string) {
  const row = await db.mockCheckoutSession.findUnique({ where: { id: sessionId } });
  if (!row) return null;
  if (row.status === "open" && row.expiresAt.getTime() <= Date.now()) {
    const { count } = await db.mockCheckoutSession.updateMany({ where: { id: sessionId, status: "open" }, data: { status: "expired" } });
    // Paid at the same moment on another instance: that one won, and the row says so.
    if (count === 0) return findSession(sessionId);
    return toStripeJson({ ...row, status: "expired" });
  }
  return toStripeJson(row);
}

/**
 * Moves an open session on (paid, or expired), as Stripe allows only from
 * "open". Conditional, so that of a payment and an expiry, or two of either,
 * at the same moment on any instance, one wins whole. Answers whether this
 * call moved it, and the session as it now stands (null when there is none).
 */
async function leaveOpen(sessionId: string, data: { status: "complete" | "expired"; paymentStatus?: "paid" | "no_payment_required"; paymentIntent?: string }) {
  const { count } = await db.mockCheckoutSession.updateMany({ where: { id: sessionId, status: "open" }, data });
  return { moved: count === 1, session: await findSession(sessionId) };
}

/** A new id with Stripe's prefix for its kind, as test-mode ids look. */
// Web Crypto, not node:crypto: the payment page's browser bundle passes through this module (its code is dropped there).
const randomHex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, "0")).join("");
export const standInId = (prefix: string) => `${prefix}_test_${randomHex(12)}`;

/**
 * What paying on the hosted page does to the session: the paid session, or
 * null when there is none or it is no longer open. Only one of several
 * payments at once (from any instance) finds it open. A $0 session is
 * completed with no payment, as Stripe completes a no-cost order.
 */
export async function paySession(sessionId: string) {
  const open = await findSession(sessionId);
  if (!open) return null;
  const completion =
    open.amount_total === 0
      ? ({ status: "complete", paymentStatus: "no_payment_required" } as const)
      : ({ status: "complete", paymentStatus: "paid", paymentIntent: standInId("pi") } as const);
  const { moved, session } = await leaveOpen(sessionId, completion);
  return moved ? session : null;
}

/** What Stripe does when a payment page's time runs out: the open session expires. Null when it was not open. */
export async function expireSession(sessionId: string) {
  return leaveOpen(sessionId, { status: "expired" });
}

/** A new open session, as Stripe creates one from the shop's request (read by mocks/stripe.ts). */
export async function openSession(fields: {
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  lineItems: MockSession["line_items"];
  amountDiscount: number;
  amountShipping: number;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}) {
  const sessionId = standInId("cs");
  const subtotal = fields.lineItems.reduce((sum, item) => sum + item.quantity * item.unit_amount, 0);
  const row = await db.mockCheckoutSession.create({
    data: {
      id: sessionId,
      status: "open",
      paymentStatus: "unpaid",
      customerEmail: fields.customerEmail,
      clientReferenceId: fields.clientReferenceId,
      metadata: JSON.stringify(fields.metadata),
      amountSubtotal: subtotal,
      amountDiscount: fields.amountDiscount,
      amountShipping: fields.amountShipping,
      amountTotal: subtotal - fields.amountDiscount + fields.amountShipping,
      lineItems: JSON.stringify(fields.lineItems),
      successUrl: fields.successUrl,
      cancelUrl: fields.cancelUrl,
      url: `${new URL(fields.successUrl).origin}/mock-stripe/pay/${sessionId}`,
      createdAt: new Date(),
      expiresAt: fields.expiresAt,
    },
  });
  return toStripeJson(row);
}

/** The paid session of a PaymentIntent, or null. */
export async function findSessionByPaymentIntent(paymentIntent: string) {
  const row = await db.mockCheckoutSession.findFirst({ where: { paymentIntent } });
  return row ? toStripeJson(row) : null;
}

/** Every Checkout Session, oldest first. */
export async function allSessions() {
  const rows = await db.mockCheckoutSession.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toStripeJson);
}

/** Forgets every session (between tests). */
export async function forgetSessions() {
  await db.mockCheckoutSession.deleteMany();
}
