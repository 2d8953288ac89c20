import { markOrderPaid, releaseOrder } from "~/models/orders.server";
import { recordStripeRefund } from "~/models/refunds.server";
import { isCheckoutSessionPaid, type SessionPayment } from "~/services/stripe.server";
import { db } from "~/utils/db.server";

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
  const seen = await db.stripeEvent.findUnique({ where: { id: event.id } });
  if (seen?.processedAt) return { duplicate: true };
  // Two deliveries of one event may both get here; the second create is a harmless no-op.
  if (!seen) await db.stripeEvent.create({ data: { id: event.id, type: event.type } }).catch(() => undefined);
  await moveOrderOn(event);
  await db.stripeEvent.update({ where: { id: event.id }, data: { processedAt: new Date() } });
  return { duplicate: false };
}

async function moveOrderOn({ id, type, session, charge }: PaymentEvent) {
  if (type === "charge.refunded" && charge) return recordStripeRefund(id, charge);
  const orderId = session?.metadata?.orderId;
  if (!session || !orderId) return;
  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      if (isCheckoutSessionPaid(session)) await markOrderPaid(orderId, session.id, session.payment_intent ?? null);
      return;
    case "checkout.session.expired":
      await releaseOrder(orderId, session.id);
      return;
    default:
      return;
  }
}
