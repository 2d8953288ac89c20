import { closeOrderPayment, markOrderPaid, releaseOrder, verifyPayment } from "~/models/orders.server";
import { PAYMENT_WINDOW_SECONDS, isCheckoutSessionPaid, paymentIntentIdOf, retrieveCheckoutSessionCached } from "~/services/stripe.server";
import { describeError } from "~/utils/errors.server";
import { db } from "~/utils/db.server";

/**
 * Unpaid orders nothing will ever settle (decision 044): an order is written
 * before its Stripe payment page is made, so a process that dies between the
 * two leaves an order with no page, holding its discount code's use and its
 * first-order claim for ever; and an order whose page's expiry event never
 * arrived (or was lost) holds them past the page's life. The sweep, run by
 * one instance at a time (app/services/jobs.server.ts), gives such orders up
 * and gives back what they held; an order whose page was in fact paid is
 * marked paid instead (the payment event was lost).
 */

/** Placing an order takes seconds (one call to Stripe, 20 s at most): one without a page after this was abandoned. */
export const NO_PAGE_AFTER_MS = 10 * 60_000;
/** A page lives PAYMENT_WINDOW_SECONDS; its expiry event normally settles the order within minutes after. */
export const PAGE_SETTLED_AFTER_MS = PAYMENT_WINDOW_SECONDS * 1000 + 15 * 60_000;
/** Orders looked at per run; the next run takes the rest. */
const BATCH = 100;

export type SweepResult = { givenUp: number; paid: number; left: number };

export async function sweepOrphanOrders(now = new Date()): Promise<SweepResult> {
  const result: SweepResult = { givenUp: 0, paid: 0, left: 0 };
  const pageless = await db.order.findMany({
    where: { paymentStatus: "unpaid", stripeSessionId: null, createdAt: { lt: new Date(now.getTime() - NO_PAGE_AFTER_MS) } },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take: BATCH,
  });
  for (const { id } of pageless) {
    // No page: closeOrderPayment gives it up at once (a placer still at work sees that and closes its page itself).
    const closed = await closeOrderPayment(id, "expired");
    if (closed.ok) result.givenUp++;
    else result.left++;
  }

  const unsettled = await db.order.findMany({
    where: { paymentStatus: "unpaid", stripeSessionId: { not: null }, createdAt: { lt: new Date(now.getTime() - PAGE_SETTLED_AFTER_MS) } },
    select: { id: true, stripeSessionId: true },
    orderBy: { createdAt: "asc" },
    take: BATCH,
  });
  for (const { id, stripeSessionId } of unsettled) {
    try {
      // Paid after all (its event was lost): the order is fulfilled, as the webhook would have done.
      if ((await verifyPayment(stripeSessionId!)).verified) {
        result.paid++;
        continue;
      }
      const closed = await closeOrderPayment(id, "expired");
      if (closed.ok) result.givenUp++;
      else if (closed.reason === "paid") result.paid++;
      else result.left++;
    } catch (error) {
      // Stripe could not be asked: the order keeps what it holds until the next run can ask.
      console.warn(`The orphan sweep could not settle order ${id}: ${describeError(error)}`);
      result.left++;
    }
  }
  return result;
}

/** Stripe's webhook normally settles a page within seconds; a page still unsettled here after this is worth asking about. */
export const RECONCILE_AFTER_MS = 5 * 60_000;

export type Reconciliation = { checked: number; paid: number; expired: number };

/**
 * Compares the shop's unpaid orders whose payment page was opened with what
 * Stripe says of their sessions (decision 044): if webhooks stop arriving (a
 * wrong secret after a rotation, an outage) and the customer closed the tab
 * before /order-success, a paid order would stay unpaid. A paid session
 * marks its order paid through the webhook's exactly-once path (one
 * confirmation, one kitchen email); an expired one gives the order up. The
 * job asks about pages opened RECONCILE_AFTER_MS ago or more and still in
 * their hour (older ones are the orphan sweep's); the owner's
 * reconcile-payments asks about every one, whatever its age.
 */
export async function reconcilePayments({ now = new Date(), all = false }: { now?: Date; all?: boolean } = {}): Promise<Reconciliation> {
  const result: Reconciliation = { checked: 0, paid: 0, expired: 0 };
  const unpaid = await db.order.findMany({
    where: {
      paymentStatus: "unpaid",
      stripeSessionId: { not: null },
      ...(all ? {} : { createdAt: { lt: new Date(now.getTime() - RECONCILE_AFTER_MS), gte: new Date(now.getTime() - PAGE_SETTLED_AFTER_MS) } }),
    },
    select: { id: true, stripeSessionId: true },
    orderBy: { createdAt: "asc" },
    ...(all ? {} : { take: BATCH }),
  });
  for (const { id, stripeSessionId } of unpaid) {
    const sessionId = stripeSessionId!;
    let session;
    try {
      session = await retrieveCheckoutSessionCached(sessionId);
    } catch (error) {
      console.warn(`Reconciling order ${id} with Stripe failed: ${describeError(error)}`);
      continue;
    }
    result.checked++;
    if (isCheckoutSessionPaid(session)) {
      if (await markOrderPaid(id, sessionId, paymentIntentIdOf(session), session.amount_total ?? null)) {
        result.paid++;
        console.warn(`Reconciliation: order ${id} was paid at Stripe but no payment event had reached the shop; it is marked paid`);
      }
    } else if (session.status === "expired" && (await releaseOrder(id, sessionId))) {
      result.expired++;
      console.warn(`Reconciliation: order ${id}'s payment page had expired at Stripe without the shop hearing of it; the order is given up`);
    }
  }
  return result;
}

/** The reconciliation's result in a few words, for its job row. */
export function describeReconciliation({ checked, paid, expired }: Reconciliation) {
  return `${checked} checked with Stripe, ${paid} found paid, ${expired} found expired`;
}

/** The sweep's result in a few words, for its job row. */
export function describeSweep({ givenUp, paid, left }: SweepResult) {
  return `${givenUp} given up, ${paid} found paid, ${left} left for the next run`;
}
