import { db } from "~/utils/db.server";
import { recordPaymentChange } from "~/models/daily-sales.server";
import { recordAudit } from "~/models/audit.server";
import { orderRefundEmail } from "~/services/emails.server";
import { enqueueEmails } from "~/services/outbox.server";
import { findPaymentIntentId, isAlreadyRefunded, refundPayment } from "~/services/stripe.server";
import { describeError } from "~/utils/errors.server";
import { formatCents } from "~/lib/money";
import { shortOrderId } from "~/lib/orders";

/**
 * Full refunds (issue 13). The owner refunds an order from the admin
 * (refundOrder: Stripe first, with the order's idempotency key, then the
 * shop's record); a refund made in Stripe's dashboard arrives as a
 * charge.refunded webhook (payment-events.server.ts). Both end in
 * markOrderRefunded, the one place a payment becomes `refunded`: one
 * conditional update, the audit record and the customer's email in one
 * transaction, so however the two meet, the order is refunded and mailed once.
 */

export type RefundResult =
  | { ok: true; message: string; alreadyRefunded: boolean }
  | { ok: false; reason: "not-found" | "not-paid" | "no-charge" | "no-payment" | "refunded-at-stripe" | "payment-provider" };

export const REFUND_REASON_MAX = 500;

/** The owner's full refund of a paid order; a refunded order is answered as such and nothing is done again. */
export async function refundOrder({ orderId, reason, actorEmail }: { orderId: string; reason: string; actorEmail: string }): Promise<RefundResult> {
  const order = await db.order.findUnique({
    where: { id: orderId },
    select: { id: true, paymentStatus: true, paymentIntentId: true, stripeSessionId: true, totalCents: true },
  });
  if (!order) return { ok: false, reason: "not-found" };
  const short = shortOrderId(order.id);
  if (order.paymentStatus === "refunded") return { ok: true, alreadyRefunded: true, message: `Order ${short} was already refunded.` };
  if (order.paymentStatus !== "paid") return { ok: false, reason: "not-paid" };
  // A $0 order (a 100% code) took no money: Stripe completed it without a payment to refund (decision 025).
  if (order.totalCents === 0) return { ok: false, reason: "no-charge" };

  let refund;
  try {
    // Orders paid before the shop kept the PaymentIntent: Stripe's session knows it.
    const paymentIntentId = order.paymentIntentId ?? (order.stripeSessionId ? await findPaymentIntentId(order.stripeSessionId) : null);
    if (!paymentIntentId) return { ok: false, reason: "no-payment" };
    refund = await refundPayment(order.id, paymentIntentId);
  } catch (error) {
    if (isAlreadyRefunded(error)) return { ok: false, reason: "refunded-at-stripe" };
    console.error(`Refunding order ${order.id} at Stripe failed: ${describeError(error)}`);
    return { ok: false, reason: "payment-provider" };
  }

  const { changed } = await markOrderRefunded({ orderId, refundId: refund.id, amountCents: refund.amount, reason, refundedBy: actorEmail });
  return changed
    ? { ok: true, alreadyRefunded: false, message: `Order ${short} is refunded: ${formatCents(refund.amount)} goes back to the customer's card.` }
    : { ok: true, alreadyRefunded: true, message: `Order ${short} was already refunded.` };
}

export type RefundRecord = {
  orderId: string;
  /** Stripe's refund (re_…), when known: a charge.refunded event may not list it. */
  refundId: string | null;
  amountCents: number;
  /** The operator's reason; null for a refund made in Stripe's dashboard. */
  reason: string | null;
  /** The operator's email, or "Stripe" for a refund made in Stripe's dashboard. */
  refundedBy: string;
};

/**
 * Marks a paid order refunded, once, with the audit record and the
 * customer's email. When the order is already refunded (the webhook of the
 * owner's own refund got here first), only the owner's reason and name are
 * added to it: no second email.
 */
async function markOrderRefunded(record: RefundRecord): Promise<{ changed: boolean }> {
  return db.$transaction(async (tx) => {
    const before = await tx.order.findUnique({ where: { id: record.orderId }, include: { items: true } });
    if (!before) return { changed: false };
    const refundedAt = new Date();
    const { count } = await tx.order.updateMany({
      where: { id: record.orderId, paymentStatus: "paid" },
      data: {
        paymentStatus: "refunded",
        stripeRefundId: record.refundId,
        refundedCents: record.amountCents,
        refundReason: record.reason,
        refundedBy: record.refundedBy,
        refundedAt,
      },
    });
    const audit = {
      actorEmail: record.refundedBy,
      action: "order.refund" as const,
      subjectType: "order" as const,
      subjectId: record.orderId,
      before: { paymentStatus: before.paymentStatus, refundReason: before.refundReason, refundedBy: before.refundedBy },
    };
    if (count === 1) {
      // The dashboard counts paid orders: a refunded one leaves its day.
      await recordPaymentChange(tx, before, "paid", "refunded");
      await recordAudit(tx, {
        ...audit,
        after: { paymentStatus: "refunded", refundId: record.refundId, amountCents: record.amountCents, reason: record.reason },
      });
      await enqueueEmails(tx, [orderRefundEmail(before, record.amountCents)]);
      return { changed: true };
    }
    const current = await tx.order.findUniqueOrThrow({ where: { id: record.orderId }, select: { paymentStatus: true, refundReason: true } });
    if (current.paymentStatus === "refunded" && record.reason && !current.refundReason) {
      await tx.order.update({
        where: { id: record.orderId },
        data: { refundReason: record.reason, refundedBy: record.refundedBy, ...(record.refundId && { stripeRefundId: record.refundId }) },
      });
      await recordAudit(tx, { ...audit, after: { paymentStatus: "refunded", refundId: record.refundId, reason: record.reason } });
    }
    return { changed: false };
  });
}

/** A charge.refunded event: a full refund (from Stripe's dashboard, or the echo of the owner's) marks its order refunded. */
export async function recordStripeRefund(charge: { paymentIntentId: string; refunded: boolean; amountRefunded: number; refundId: string | null }) {
  if (!charge.refunded) {
    // The shop refunds in full only; a partial refund made in Stripe's dashboard is left to the owner.
    console.warn(`A partial refund of PaymentIntent ${charge.paymentIntentId} was made at Stripe; the order is not marked refunded`);
    return;
  }
  const order = await db.order.findUnique({ where: { paymentIntentId: charge.paymentIntentId }, select: { id: true } });
  if (!order) return;
  await markOrderRefunded({ orderId: order.id, refundId: charge.refundId, amountCents: charge.amountRefunded, reason: null, refundedBy: "Stripe" });
}
