import { markOrderPaid, releaseOrder } from "~/models/orders.server";
import { recordStripeRefund } from "~/models/refunds.server";
import { isCheckoutSessionPaid, type SessionPayment } from "~/services/stripe.server";
import { at, sqlDb } from "~/utils/db.server";

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
  const receivedAt = at(new Date());
  const row = await sqlDb()
    .with("recorded", (db) =>
      db
        .insertInto("StripeEvent")
        .values({ id: event.id, type: event.type, receivedAt })
        .onConflict((conflict) => conflict.column("id").doNothing())
        .returning("processedAt"),
    )
    .selectFrom("recorded")
    .select("processedAt")
    .unionAll((db) =>
      db
        .selectFrom("StripeEvent")
        .select("processedAt")
        .where("id", "=", event.id)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom("recorded").select("processedAt")))),
    )
    .executeTakeFirst();
  if (row?.processedAt) return { duplicate: true };
  await moveOrderOn(event);
  await sqlDb()
    .updateTable("StripeEvent")
    .set({ processedAt: at(new Date()) })
    .where("id", "=", event.id)
    .execute();
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
