import type { Prisma } from "~/generated/prisma/client";
import { db } from "~/utils/db.server";
import { recordPaymentChange } from "~/models/daily-sales.server";
import { recordAudit } from "~/models/audit.server";
import { orderRefundEmail } from "~/services/emails.server";
import { enqueueEmails } from "~/services/outbox.server";
import { findPaymentIntentId, isAlreadyRefunded, isOutcomeUnknown, isRefusedByStripe, refundPayment } from "~/services/stripe.server";
import { describeError } from "~/utils/errors.server";
import { metrics } from "~/utils/metrics.server";
import { formatCents } from "~/lib/money";
import { shortOrderId } from "~/lib/orders";

/**
 * Full refunds (decisions 023, 042). The owner refunds an order from the admin
 * (refundOrder: Stripe first, with the order's idempotency key, then the
 * shop's record); a refund made in Stripe's dashboard arrives as a
 * charge.refunded webhook (payment-events.server.ts). Both end in
 * markOrderRefunded, the one place a payment becomes `refunded`: one
 * conditional update, the audit record and the customer's email in one
 * transaction, so however the two meet, the order is refunded and mailed once.
 *
 * A refund whose call to Stripe got no answer (a timeout, a dropped
 * connection) is neither made nor failed as far as the shop knows: the order
 * keeps it as requested (refundRequestedAt), the owner is told so, and
 * settlePendingRefunds asks Stripe again with the same idempotency key until
 * Stripe's answer settles it (decision 042).
 */

export type RefundResult =
  | { ok: true; outcome: "refunded" | "already-refunded" | "pending"; message: string }
  | { ok: false; reason: "not-found" | "not-paid" | "no-charge" | "no-payment" | "refunded-at-stripe" | "payment-provider" };

export const REFUND_REASON_MAX = 500;

const alreadyRefunded = (short: string): RefundResult => ({ ok: true, outcome: "already-refunded", message: `Order ${short} was already refunded.` });
const stillPending = (short: string): RefundResult => ({
  ok: true,
  outcome: "pending",
  message: `A refund of order ${short} is already pending: the shop is checking with Stripe and marks the order refunded as soon as Stripe confirms it. Nothing more to do.`,
});

/**
 * The owner's full refund of a paid order; a refunded order is answered as
 * such and nothing is done again. When Stripe does not answer, the refund is
 * kept as pending and answered so; while it is pending, Stripe is not asked
 * again from here (settlePendingRefunds does that).
 */
export async function refundOrder({ orderId, reason, actorEmail }: { orderId: string; reason: string; actorEmail: string }): Promise<RefundResult> {
  const order = await db.order.findUnique({
    where: { id: orderId },
    select: { id: true, paymentStatus: true, paymentIntentId: true, stripeSessionId: true, totalCents: true, refundRequestedAt: true },
  });
  if (!order) return { ok: false, reason: "not-found" };
  const short = shortOrderId(order.id);
  if (order.paymentStatus === "refunded") return alreadyRefunded(short);
  if (order.paymentStatus !== "paid") return { ok: false, reason: "not-paid" };
  // A $0 order (a 100% code) took no money: Stripe completed it without a payment to refund (decision 025).
  if (order.totalCents === 0) return { ok: false, reason: "no-charge" };
  if (order.refundRequestedAt) return stillPending(short);

  let paymentIntentId;
  try {
    // Orders paid before the shop kept the PaymentIntent: Stripe's session knows it.
    paymentIntentId = order.paymentIntentId ?? (order.stripeSessionId ? await findPaymentIntentId(order.stripeSessionId) : null);
  } catch (error) {
    // Only a question was asked: whatever happened to it, nothing was refunded.
    console.error(`Finding the payment of order ${order.id} at Stripe failed: ${describeError(error)}`);
    return { ok: false, reason: "payment-provider" };
  }
  if (!paymentIntentId) return { ok: false, reason: "no-payment" };

  let refund;
  try {
    refund = await refundPayment(order.id, paymentIntentId);
  } catch (error) {
    if (isAlreadyRefunded(error)) return { ok: false, reason: "refunded-at-stripe" };
    if (isOutcomeUnknown(error)) return keepRefundPending({ orderId: order.id, reason, actorEmail, error });
    console.error(`Refunding order ${order.id} at Stripe failed: ${describeError(error)}`);
    return { ok: false, reason: "payment-provider" };
  }

  const { changed } = await markOrderRefunded({ orderId, refundId: refund.id, amountCents: refund.amount, reason, refundedBy: actorEmail });
  return changed
    ? { ok: true, outcome: "refunded", message: `Order ${short} is refunded: ${formatCents(refund.amount)} goes back to the customer's card.` }
    : alreadyRefunded(short);
}

/**
 * Stripe's answer to the owner's refund never came: the order records the
 * request (who, when, why) for settlePendingRefunds, unless Stripe's notice
 * already marked it refunded or another request is already pending.
 */
async function keepRefundPending({ orderId, reason, actorEmail, error }: { orderId: string; reason: string; actorEmail: string; error: unknown }): Promise<RefundResult> {
  console.warn(`Stripe did not answer the refund of order ${orderId} (${describeError(error)}); it is pending until Stripe is asked again`);
  const short = shortOrderId(orderId);
  const { count } = await db.order.updateMany({
    where: { id: orderId, paymentStatus: "paid", refundRequestedAt: null },
    data: { refundRequestedAt: new Date(), refundRequestedBy: actorEmail, refundReason: reason },
  });
  if (count === 0) {
    const now = await db.order.findUniqueOrThrow({ where: { id: orderId }, select: { paymentStatus: true } });
    return now.paymentStatus === "refunded" ? alreadyRefunded(short) : stillPending(short);
  }
  return {
    ok: true,
    outcome: "pending",
    message:
      `Stripe did not answer in time, so it is not known yet whether order ${short} was refunded. ` +
      "The shop keeps checking with Stripe (it can never refund twice) and marks the order refunded, and emails the customer, as soon as Stripe confirms it.",
  };
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
 * added to it: no second email. A refund the owner asked for and Stripe has
 * not confirmed (pending) is the owner's, with the owner's reason, whichever
 * of Stripe's answer or Stripe's notice confirms it.
 */
async function markOrderRefunded(given: RefundRecord): Promise<{ changed: boolean }> {
  const result = await db.$transaction((tx) => markOrderRefundedIn(tx, given));
  if (result.changed) metrics().ordersRefunded.inc();
  return result;
}

/** markOrderRefunded inside a transaction the caller holds (the payment that meets an early refund). */
async function markOrderRefundedIn(tx: Prisma.TransactionClient, given: RefundRecord): Promise<{ changed: boolean }> {
  {
    const before = await tx.order.findUnique({ where: { id: given.orderId }, include: { items: true } });
    if (!before) return { changed: false };
    const requested = before.paymentStatus === "paid" && before.refundRequestedAt !== null && given.reason === null;
    const record = requested ? { ...given, reason: before.refundReason, refundedBy: before.refundRequestedBy ?? given.refundedBy } : given;
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
        refundRequestedAt: null,
        refundRequestedBy: null,
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
      // Refunded before its payment's emails went out: the kitchen is not told to make it, nor the customer that it is confirmed.
      await tx.outboxMessage.updateMany({
        where: { orderId: record.orderId, status: "pending", kind: { in: ["order-confirmation", "order-fulfilment"] } },
        data: { status: "withdrawn", lastError: "The order was refunded before this email went out" },
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
  }
}

/**
 * A charge.refunded event: a full refund (from Stripe's dashboard, or the
 * echo of the owner's) marks its order refunded. A refund for a PaymentIntent
 * no order holds yet came before its payment's event (that delivery failed
 * and Stripe retries it later): it is kept, and the payment applies it when
 * it arrives (applyEarlyRefund), so the kitchen never hears of the order.
 */
export async function recordStripeRefund(
  eventId: string,
  charge: { paymentIntentId: string; refunded: boolean; amountRefunded: number; refundId: string | null },
) {
  if (!charge.refunded) {
    // The shop refunds in full only; a partial refund made in Stripe's dashboard is left to the owner.
    console.warn(`A partial refund of PaymentIntent ${charge.paymentIntentId} was made at Stripe; the order is not marked refunded`);
    return;
  }
  const refunded = await db.$transaction(async (tx) => {
    // One at a time per PaymentIntent with its payment (markOrderPaid takes the same lock): either the payment
    // is stored and this refund finds its order, or this refund is kept before the payment looks for it.
    await lockPaymentIntent(tx, charge.paymentIntentId);
    const order = await tx.order.findUnique({ where: { paymentIntentId: charge.paymentIntentId }, select: { id: true } });
    const record = { refundId: charge.refundId, amountCents: charge.amountRefunded };
    if (order) {
      const { changed } = await markOrderRefundedIn(tx, { orderId: order.id, ...record, reason: null, refundedBy: "Stripe" });
      return changed;
    }
    await tx.earlyRefund.upsert({
      where: { paymentIntentId: charge.paymentIntentId },
      create: { paymentIntentId: charge.paymentIntentId, eventId, ...record },
      update: {},
    });
    console.warn(`A refund of PaymentIntent ${charge.paymentIntentId} came before its payment; it is applied when the payment arrives`);
    return false;
  });
  if (refunded) metrics().ordersRefunded.inc();
}

/** Serialises the payment and the refund events of one PaymentIntent (a transaction-scoped advisory lock). */
export async function lockPaymentIntent(tx: Prisma.TransactionClient, paymentIntentId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payment-intent:${paymentIntentId}`}, 0))`;
}

/**
 * Called by markOrderPaid, in its transaction and under lockPaymentIntent,
 * once the order is paid: a refund kept for this PaymentIntent refunds the
 * order at once. Returns whether it did: then the order is refunded, the
 * customer is told so, and neither the confirmation nor the kitchen's email goes out.
 */
export async function applyEarlyRefund(tx: Prisma.TransactionClient, orderId: string, paymentIntentId: string): Promise<boolean> {
  const early = await tx.earlyRefund.findUnique({ where: { paymentIntentId } });
  if (!early) return false;
  await markOrderRefundedIn(tx, { orderId, refundId: early.refundId, amountCents: early.amountCents, reason: null, refundedBy: "Stripe" });
  await tx.earlyRefund.delete({ where: { paymentIntentId } });
  return true;
}

/** How many pending refunds one pass of the checker asks Stripe about, oldest first; the rest wait for the next pass. */
const SETTLE_BATCH = 20;

type PendingRefund = {
  id: string;
  paymentIntentId: string | null;
  stripeSessionId: string | null;
  refundReason: string | null;
  refundRequestedAt: Date;
  refundRequestedBy: string | null;
};

/**
 * Asks Stripe again about each refund whose answer never came, with the
 * order's idempotency key, so that Stripe answers with the refund it made
 * (or makes it now, if the first request never reached it): at most one
 * refund per order, however often and from however many instances it asks.
 * Stripe's refund marks the order refunded (markOrderRefunded: one email,
 * one audit record); a refusal ends the request and records why; no answer,
 * or one that may change (5xx, 409, 429), leaves it for the next pass.
 * Answers how many were settled.
 */
export async function settlePendingRefunds(): Promise<number> {
  const pending = await db.order.findMany({
    where: { paymentStatus: "paid", refundRequestedAt: { not: null } },
    orderBy: { refundRequestedAt: "asc" },
    take: SETTLE_BATCH,
    select: { id: true, paymentIntentId: true, stripeSessionId: true, refundReason: true, refundRequestedAt: true, refundRequestedBy: true },
  });
  let settled = 0;
  for (const order of pending) {
    if (order.refundRequestedAt && (await settlePendingRefund({ ...order, refundRequestedAt: order.refundRequestedAt }))) settled += 1;
  }
  return settled;
}

/** One pending refund asked of Stripe again; true when Stripe's answer settled it here. */
async function settlePendingRefund(order: PendingRefund): Promise<boolean> {
  let refund;
  try {
    const paymentIntentId = order.paymentIntentId ?? (order.stripeSessionId ? await findPaymentIntentId(order.stripeSessionId) : null);
    if (!paymentIntentId) return endRefundRequest(order, { code: null, message: "The order has no card payment at Stripe to refund." });
    refund = await refundPayment(order.id, paymentIntentId);
  } catch (error) {
    if (isAlreadyRefunded(error)) {
      // Refunded at Stripe (its dashboard, or this request once its key expired): Stripe's charge.refunded notice marks the order.
      console.warn(`Stripe says the payment of order ${order.id}, whose refund is pending, is already refunded; its charge.refunded notice will mark the order`);
      return false;
    }
    if (isRefusedByStripe(error)) return endRefundRequest(order, { code: error.code ?? null, message: firstLine(error.message) });
    console.warn(`Asking Stripe about the pending refund of order ${order.id} failed (${describeError(error)}); asking again on the next pass`);
    return false;
  }
  const { changed } = await markOrderRefunded({
    orderId: order.id,
    refundId: refund.id,
    amountCents: refund.amount,
    reason: order.refundReason,
    refundedBy: order.refundRequestedBy ?? "the shop",
  });
  return changed;
}

/** Why Stripe refused a refund, as its audit record keeps it: Stripe's code (charge_disputed …) and message. */
export type RefundRefusal = { code: string | null; message: string };

const firstLine = (text: string) => (text.split("\n").find((line) => line.trim())?.trim() ?? "").slice(0, 300);

/**
 * Stripe refused a pending refund: the order is no longer waiting for one
 * (it stays paid; the owner may try again) and the audit trail says why.
 * Conditional on the request read, so that of several instances settling it
 * at once one writes the record.
 */
async function endRefundRequest(order: PendingRefund, refusal: RefundRefusal): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.order.updateMany({
      where: { id: order.id, paymentStatus: "paid", refundRequestedAt: order.refundRequestedAt },
      data: { refundRequestedAt: null, refundRequestedBy: null, refundReason: null },
    });
    if (count === 0) return false;
    await recordAudit(tx, {
      actorEmail: "Stripe",
      action: "order.refund-refused",
      subjectType: "order",
      subjectId: order.id,
      before: { refundRequestedAt: order.refundRequestedAt.toISOString(), refundRequestedBy: order.refundRequestedBy, refundReason: order.refundReason },
      after: { refused: refusal },
    });
    return true;
  });
}
