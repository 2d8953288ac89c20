import { markOrderPaid, releaseOrder } from "~/models/orders.server";
import { recordStripeRefund } from "~/models/refunds.server";
import { isCheckoutSessionPaid, type SessionPayment } from "~/services/stripe.server";
import { at, query } from "~/utils/db.server";

/** What the shop uses of a Stripe event whose signature and shape were checked. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** The Checkout Session of a checkout.session.* event; null for any other event. */
  session: (SessionPayment & { id: string; payment_intent?: string | null; metadata?: { orderId?: string } | null }) | null;
  /** The Charge of a charge.refunded event; null for any other event. */
  charge?: {
    paymentIntentId: string;
    refunded: boolean;
    amountRefunded: number;
    refundId: string | null;
    /** The refunds the charge lists, newest first, with their amounts; null when it lists none. */
    refunds?: { id: string; amount: number }[] | null;
  } | null;
};

export type PaymentEventOutcome = { duplicate: boolean };

/**
 * Handles each event id once: a repeat is skipped, an event that failed
 * midway is handled again when Stripe resends it. Paid (or completed $0)
 * and expired Checkout Sessions move their order on, a refunded charge
 * refunds its order; every other event is only recorded. Events count in
 * any order of arrival: a refund before its payment is kept and applied by
 * the payment (the order ends refunded, the kitchen never told), an expiry
 * after a payment changes nothing, a payment after an expiry is honoured.
 */
export async function handlePaymentEvent(event: PaymentEvent): Promise<PaymentEventOutcome> {
  // One statement (node-pg, decision 068): the event is recorded, or found as it was recorded before.
  // Two deliveries of one event may both get here; the second insert is a harmless no-op.
  const { rows } = await query<{ processedAt: Date | null }>(
    `WITH recorded AS (
       INSERT INTO "StripeEvent" ("id", "type", "receivedAt") VALUES ($1, $2, $3) ON CONFLICT ("id") DO NOTHING RETURNING "processedAt")
     SELECT "processedAt" FROM recorded
     UNION ALL
     SELECT "processedAt" FROM "StripeEvent" WHERE "id" = $1 AND NOT EXISTS (SELECT 1 FROM recorded)`,
    [event.id, event.type, at(new Date())],
  );
  if (rows[0]?.processedAt) return { duplicate: true };
  await moveOrderOn(event);
  await query(`UPDATE "StripeEvent" SET "processedAt" = $2 WHERE "id" = $1`, [event.id, at(new Date())]);
  return { duplicate: false };
}

async function moveOrderOn({ id, type, session, charge }: PaymentEvent) {
  if (type === "charge.refunded" && charge) return recordStripeRefund(id, charge);
  const orderId = session?.metadata?.orderId;
  if (!session || !orderId) return;
  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      if (isCheckoutSessionPaid(session)) await markOrderPaid(orderId, session.id, session.payment_intent ?? null, session.amount_total ?? null);
      return;
    case "checkout.session.expired":
      await releaseOrder(orderId, session.id);
      return;
    default:
      return;
  }
}
