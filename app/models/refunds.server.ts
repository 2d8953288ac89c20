import { z } from "zod";
import { Prisma } from "~/generated/prisma/client";
import { parseStored } from "~/utils/stored.server";
import { advisoryXactLock, db, inTransaction, sqlIn, type Sql } from "~/utils/db.server";
import { recordRefundInSales } from "~/models/daily-sales.server";
import { recordAudit } from "~/models/audit.server";
import { lineRefundCents } from "~/models/pricing.server";
import { releaseStock } from "~/models/stock.server";
import { orderPartRefundEmail, orderRefundEmail, type ShopFooter } from "~/services/emails.server";
import { shopSettings } from "~/models/catalog.server";
import { enqueueEmails } from "~/services/outbox.server";
import { findPaymentIntentId, isAlreadyRefunded, isOutcomeUnknown, isRefusedByStripe, listRefunds, refundPayment } from "~/services/stripe.server";
import { describeError } from "~/utils/errors.server";
import { metrics } from "~/utils/metrics.server";
import { formatCents } from "~/lib/money";
import { shortOrderId } from "~/lib/orders";

/**
 * Refunds, whole or part (decisions 023, 042, 066). The owner refunds the
 * rest of an order, an amount, or chosen lines (refundOrder: the amount is
 * decided here, Stripe is asked first with this refund's idempotency key, then
 * the shop records it); a refund made in Stripe's dashboard arrives as a
 * charge.refunded webhook (payment-events.server.ts). Both end in recordRefund,
 * the one place a refund is written: a Refund row (unique by Stripe's refund
 * id), the order's refunded total, the day's revenue, the audit record and
 * the customer's email in one transaction under the order's row lock, so
 * however the owner's answer and Stripe's notice meet, each refund is
 * recorded and mailed once. The order's payment becomes `refunded` when its
 * refunds reach its total; until then it stays `paid`, partly refunded.
 *
 * A refund whose call to Stripe got no answer (a timeout, a dropped
 * connection) is neither made nor failed as far as the shop knows: the order
 * keeps it as requested (refundRequestedAt, with its amount, key, lines and
 * restock), the owner is told so, and settlePendingRefunds asks Stripe again
 * with the same idempotency key until Stripe's answer settles it (decision 042).
 */

/** Part of an order line: its OrderItem id and how many of it. */
export type RefundLine = { itemId: number; quantity: number };

/** What the owner asks: the rest of the order (neither), an amount, or chosen lines; `restock` gives the lines' stock back. */
export type RefundAsk = {
  orderId: string;
  reason: string;
  actorEmail: string;
  amountCents?: number;
  lines?: readonly RefundLine[];
  restock?: boolean;
};

export type RefundResult =
  | { ok: true; outcome: "refunded" | "already-refunded" | "pending"; message: string }
  | {
      ok: false;
      reason: "not-found" | "not-paid" | "no-charge" | "no-payment" | "refunded-at-stripe" | "payment-provider";
    }
  /** The ask does not fit the order (too much, a line not in it, more of a line than is left): `message` says why, in the owner's words. */
  | { ok: false; reason: "not-refundable" | "refused-by-stripe"; message: string };

const alreadyRefunded = (short: string): RefundResult => ({ ok: true, outcome: "already-refunded", message: `Order ${short} was already refunded.` });
const stillPending = (short: string): RefundResult => ({
  ok: true,
  outcome: "pending",
  message: `A refund of order ${short} is already pending: the shop is checking with Stripe and records it as soon as Stripe confirms it. Nothing more to do.`,
});

const refundSelect = {
  id: true,
  paymentStatus: true,
  paymentIntentId: true,
  stripeSessionId: true,
  subtotalCents: true,
  discountCents: true,
  totalCents: true,
  refundedCents: true,
  refundRequestedAt: true,
  items: { select: { id: true, name: true, unitPriceCents: true, quantity: true }, orderBy: { id: "asc" } },
  refunds: { select: { lines: true } },
} as const satisfies Prisma.OrderSelect;

type RefundableOrder = Prisma.OrderGetPayload<{ select: typeof refundSelect }>;

/** The lines a Refund row was for, as stored (JSON); anything else reads as none. */
export function storedLines(value: unknown): RefundLine[] {
  if (value === null || value === undefined) return [];
  return parseStored("refund lines", storedLinesSchema, value);
}

/** [{ itemId, quantity }]: a refund's (or a pending refund request's) chosen lines, as stored. */
const storedLinesSchema = z.array(z.object({ itemId: z.number().int().positive(), quantity: z.number().int().positive() }).strict());

/** How many of each line earlier refunds of chosen lines gave back. */
function refundedQuantities(order: Pick<RefundableOrder, "refunds">) {
  const refunded = new Map<number, number>();
  for (const refund of order.refunds) for (const line of storedLines(refund.lines)) refunded.set(line.itemId, (refunded.get(line.itemId) ?? 0) + line.quantity);
  return refunded;
}

/** Each line of an order with how many of it are left to refund by line, and what one of it gives back (the server's figure the dialog shows). */
export function refundableLines(order: Pick<RefundableOrder, "items" | "refunds" | "subtotalCents" | "discountCents">) {
  const refunded = refundedQuantities(order);
  return order.items.map((item) => ({
    itemId: item.id,
    name: item.name,
    quantity: item.quantity,
    refundableQuantity: Math.max(item.quantity - (refunded.get(item.id) ?? 0), 0),
  }));
}

export type RefundPlan = { ok: true; amountCents: number; lines: RefundLine[] | null; leftCents: number } | { ok: false; message: string };

/**
 * How much the owner's ask gives back, decided here and nowhere else: the
 * rest of the order; an amount, up to the rest; or chosen lines, each at most
 * what is left of it, at their share of what the customer paid for the items
 * (lineRefundCents), up to the rest.
 */
export function planRefund(order: RefundableOrder, ask: Pick<RefundAsk, "amountCents" | "lines">): RefundPlan {
  const leftCents = order.totalCents - (order.refundedCents ?? 0);
  if (ask.lines) {
    const available = new Map(refundableLines(order).map((line) => [line.itemId, line]));
    const merged = new Map<number, number>();
    for (const line of ask.lines) merged.set(line.itemId, (merged.get(line.itemId) ?? 0) + line.quantity);
    let amountCents = 0;
    for (const [itemId, quantity] of merged) {
      const line = available.get(itemId);
      if (!line) return { ok: false, message: `Line ${itemId} is not in this order.` };
      if (quantity > line.refundableQuantity) {
        return {
          ok: false,
          message: `${line.name}: ${line.refundableQuantity === 0 ? "nothing" : `at most ${line.refundableQuantity}`} left to refund of ${line.quantity}.`,
        };
      }
      const item = order.items.find((candidate) => candidate.id === itemId);
      if (item) amountCents += lineRefundCents(order, item.unitPriceCents, quantity);
    }
    const lines = [...merged].map(([itemId, quantity]) => ({ itemId, quantity }));
    return { ok: true, amountCents: Math.min(amountCents, leftCents), lines, leftCents };
  }
  if (ask.amountCents !== undefined) {
    if (ask.amountCents > leftCents) return { ok: false, message: `At most ${formatCents(leftCents)} of this order is left to refund.` };
    return { ok: true, amountCents: ask.amountCents, lines: null, leftCents };
  }
  return { ok: true, amountCents: leftCents, lines: null, leftCents };
}

/**
 * This refund's idempotency key at Stripe: the order's own for its first and
 * whole refund (as every refund was keyed before partial refunds), else the
 * order, what was refunded before it and its amount. Two instances making the
 * same refund of the same order at once ask with one key and get one refund;
 * a second refund of the same amount, asked after the first was recorded, is a new one.
 */
export function refundKey(orderId: string, refundedBeforeCents: number, amountCents: number, totalCents: number) {
  return refundedBeforeCents === 0 && amountCents === totalCents ? `refund-${orderId}` : `refund-${orderId}-${refundedBeforeCents}-${amountCents}`;
}

/** What a refund would give back, without moving money: the dialog's figure, the server's. */
export async function previewRefund(orderId: string, ask: Pick<RefundAsk, "amountCents" | "lines">) {
  const order = await db.order.findUnique({ where: { id: orderId }, select: refundSelect });
  if (!order) return null;
  return { plan: planRefund(order, ask), refundedCents: order.refundedCents ?? 0, totalCents: order.totalCents };
}

/**
 * The owner's refund of a paid order: the rest, an amount or chosen lines. A
 * refunded order is answered as such and nothing is done again. When Stripe
 * does not answer, the refund is kept as pending and answered so; while it is
 * pending, Stripe is not asked again from here (settlePendingRefunds does that).
 */
export async function refundOrder(ask: RefundAsk): Promise<RefundResult> {
  const { orderId, reason, actorEmail } = ask;
  const order = await db.order.findUnique({ where: { id: orderId }, select: refundSelect });
  if (!order) return { ok: false, reason: "not-found" };
  const short = shortOrderId(order.id);
  if (order.paymentStatus === "refunded") return alreadyRefunded(short);
  if (order.paymentStatus !== "paid") return { ok: false, reason: "not-paid" };
  // A $0 order (a 100% code) took no money: Stripe completed it without a payment to refund (decision 025).
  if (order.totalCents === 0) return { ok: false, reason: "no-charge" };
  if (order.refundRequestedAt) return stillPending(short);
  const plan = planRefund(order, ask);
  if (!plan.ok) return { ok: false, reason: "not-refundable", message: plan.message };
  if (plan.amountCents <= 0) return { ok: false, reason: "not-refundable", message: "Those lines come to $0.00: there is nothing to refund." };
  const restock = ask.restock ?? false;

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

  const refundedBefore = order.refundedCents ?? 0;
  const request = { amountCents: plan.amountCents, key: refundKey(order.id, refundedBefore, plan.amountCents, order.totalCents), lines: plan.lines, restock };
  let refund;
  try {
    refund = await refundPayment(order.id, paymentIntentId, request);
  } catch (error) {
    if (isAlreadyRefunded(error)) return { ok: false, reason: "refunded-at-stripe" };
    if (isOutcomeUnknown(error)) return keepRefundPending({ orderId: order.id, reason, actorEmail, error, request });
    if (isRefusedByStripe(error)) return { ok: false, reason: "refused-by-stripe", message: firstLine(error.message) };
    console.error(`Refunding order ${order.id} at Stripe failed: ${describeError(error)}`);
    return { ok: false, reason: "payment-provider" };
  }

  const recorded = await recordRefund({ orderId, refundId: refund.id, amountCents: refund.amount, reason, refundedBy: actorEmail, lines: plan.lines, restock });
  if (!recorded.changed) return alreadyRefunded(short);
  return {
    ok: true,
    outcome: "refunded",
    message: recorded.whole
      ? `Order ${short} is refunded: ${formatCents(refund.amount)} goes back to the customer's card${refundedBefore > 0 ? ` (${formatCents(order.totalCents)} in all)` : ""}.`
      : `Refunded ${formatCents(refund.amount)} of order ${short} to the customer's card; ${formatCents(recorded.refundedCents)} of ${formatCents(order.totalCents)} refunded so far.`,
  };
}

type PendingAsk = { amountCents: number; key: string; lines: RefundLine[] | null; restock: boolean };

/**
 * Stripe's answer to the owner's refund never came: the order records the
 * request (who, when, why, how much, with which key) for settlePendingRefunds,
 * unless another request is already pending or the order is no longer paid.
 */
async function keepRefundPending({
  orderId,
  reason,
  actorEmail,
  error,
  request,
}: {
  orderId: string;
  reason: string;
  actorEmail: string;
  error: unknown;
  request: PendingAsk;
}): Promise<RefundResult> {
  console.warn(`Stripe did not answer the refund of order ${orderId} (${describeError(error)}); it is pending until Stripe is asked again`);
  const short = shortOrderId(orderId);
  const { count } = await db.order.updateMany({
    where: { id: orderId, paymentStatus: "paid", refundRequestedAt: null },
    data: {
      refundRequestedAt: new Date(),
      refundRequestedBy: actorEmail,
      refundReason: reason,
      refundRequestedCents: request.amountCents,
      refundRequestKey: request.key,
      refundRequestLines: request.lines ?? Prisma.DbNull,
      refundRequestRestock: request.restock,
    },
  });
  if (count === 0) {
    const now = await db.order.findUniqueOrThrow({ where: { id: orderId }, select: { paymentStatus: true } });
    return now.paymentStatus === "refunded" ? alreadyRefunded(short) : stillPending(short);
  }
  return {
    ok: true,
    outcome: "pending",
    message:
      `Stripe did not answer in time, so it is not known yet whether ${formatCents(request.amountCents)} of order ${short} was refunded. ` +
      "The shop keeps checking with Stripe (it can never refund twice) and records the refund, and emails the customer, as soon as Stripe confirms it.",
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
  /** The lines it is for, when the owner chose lines. */
  lines?: readonly RefundLine[] | null;
  /** Whether their stock (all of the order's, for a refund of the rest) goes back. */
  restock?: boolean;
};

type Recorded = { changed: boolean; whole: boolean; refundedCents: number };

/** recordRefundIn in its own transaction, counted in the metrics when it refunded an order whole. */
async function recordRefund(given: RefundRecord): Promise<Recorded> {
  const settings = await shopSettings();
  const result = await inTransaction((tx) => recordRefundIn(tx, given, settings));
  if (result.changed && result.whole) metrics().ordersRefunded.inc();
  return result;
}

/**
 * Records one refund of a paid order, once, inside the caller's transaction:
 * the Refund row, the order's refunded total (and its `refunded` payment when
 * that reaches its total), the day's revenue, stock given back when asked,
 * the audit record and the customer's email. The same Stripe refund again
 * (the owner's answer and Stripe's notice of it, in either order) only adds
 * the owner's reason, name and lines to a record Stripe's notice made first:
 * no second email. A refund the owner asked for and Stripe has not confirmed
 * (pending) is the owner's, with the owner's reason, whichever of Stripe's
 * answer or Stripe's notice confirms it. `shop`: the settings the email's
 * footer reads, read before the transaction.
 */
async function recordRefundIn(tx: Prisma.TransactionClient, given: RefundRecord, shop: ShopFooter): Promise<Recorded> {
  // One refund of an order at a time: the owner's answer and Stripe's notice may meet here.
  await sqlIn(tx).db.selectFrom("Order").select("id").where("id", "=", given.orderId).forUpdate().execute();
  const before = await tx.order.findUnique({ where: { id: given.orderId }, include: { items: true } });
  if (!before) return { changed: false, whole: false, refundedCents: 0 };
  const refundedBefore = before.refundedCents ?? 0;
  const unchanged = { changed: false, whole: before.paymentStatus === "refunded", refundedCents: refundedBefore };

  if (given.refundId) {
    const known = await tx.refund.findUnique({ where: { stripeRefundId: given.refundId } });
    if (known) {
      if (known.reason === null && given.reason !== null) {
        // Stripe's notice of the owner's refund came first: the record becomes the owner's, and their restock is done now.
        await tx.refund.update({
          where: { id: known.id },
          data: {
            reason: given.reason,
            refundedBy: given.refundedBy,
            lines: given.lines ? [...given.lines] : Prisma.DbNull,
            restocked: given.restock ?? false,
          },
        });
        if (given.restock) await releaseStock(sqlIn(tx), before.id, given.lines ?? undefined);
        if (before.paymentStatus === "refunded" && !before.refundReason) {
          await tx.order.update({ where: { id: before.id }, data: { refundReason: given.reason, refundedBy: given.refundedBy } });
        }
        await recordAudit(tx, {
          actorEmail: given.refundedBy,
          action: "order.refund",
          subjectType: "order",
          subjectId: before.id,
          before: { refundedBy: known.refundedBy, reason: known.reason },
          after: {
            refundId: given.refundId,
            amountCents: known.amountCents,
            reason: given.reason,
            lines: given.lines ?? null,
            restocked: given.restock ?? false,
          },
        });
      }
      return unchanged;
    }
  }
  if (before.paymentStatus !== "paid") return unchanged;

  // Stripe's notice of a refund the owner asked for and Stripe had not confirmed: it is the owner's request, settled.
  const requested = before.refundRequestedAt !== null && (before.refundRequestedCents === null || before.refundRequestedCents === given.amountCents);
  const record: RefundRecord =
    requested && given.reason === null
      ? {
          ...given,
          reason: before.refundReason,
          refundedBy: before.refundRequestedBy ?? given.refundedBy,
          lines: storedLines(before.refundRequestLines).length > 0 ? storedLines(before.refundRequestLines) : null,
          restock: before.refundRequestRestock,
        }
      : given;
  const amountCents = Math.min(record.amountCents, before.totalCents - refundedBefore);
  if (amountCents <= 0) return unchanged;
  const refundedCents = refundedBefore + amountCents;
  const whole = refundedCents >= before.totalCents;
  const refundedAt = new Date();

  await tx.refund.create({
    data: {
      orderId: before.id,
      stripeRefundId: record.refundId,
      amountCents,
      reason: record.reason,
      refundedBy: record.refundedBy,
      lines: record.lines ? [...record.lines] : Prisma.DbNull,
      restocked: record.restock ?? false,
      createdAt: refundedAt,
    },
  });
  await tx.order.update({
    where: { id: before.id },
    data: {
      refundedCents,
      ...(whole && { paymentStatus: "refunded", stripeRefundId: record.refundId, refundReason: record.reason, refundedBy: record.refundedBy, refundedAt }),
      ...(requested && {
        refundRequestedAt: null,
        refundRequestedBy: null,
        refundRequestedCents: null,
        refundRequestKey: null,
        refundRequestLines: Prisma.DbNull,
        refundRequestRestock: false,
        ...(!whole && { refundReason: null }),
      }),
    },
  });
  // The dashboard's day keeps what its orders kept: less this refund, and without the order once it is refunded whole.
  await recordRefundInSales(sqlIn(tx), before, amountCents, whole);
  if (record.restock) await releaseStock(sqlIn(tx), before.id, record.lines ?? undefined);
  await recordAudit(tx, {
    actorEmail: record.refundedBy,
    action: "order.refund",
    subjectType: "order",
    subjectId: before.id,
    before: { paymentStatus: before.paymentStatus, refundedCents: refundedBefore },
    after: {
      paymentStatus: whole ? "refunded" : "paid",
      refundId: record.refundId,
      amountCents,
      refundedCents,
      reason: record.reason,
      lines: record.lines ?? null,
      restocked: record.restock ?? false,
    },
  });
  if (whole) {
    // Refunded before its payment's emails went out: the kitchen is not told to make it, nor the customer that it is confirmed.
    await tx.outboxMessage.updateMany({
      where: { orderId: before.id, status: "pending", kind: { in: ["order-confirmation", "order-fulfilment"] } },
      data: { status: "withdrawn", lastError: "The order was refunded before this email went out" },
    });
    await enqueueEmails(sqlIn(tx), [await orderRefundEmail(before, { amountCents, refundedCents }, shop)]);
  } else {
    const names = new Map(before.items.map((item) => [item.id, item.name]));
    const lines = (record.lines ?? []).map((line) => ({ name: names.get(line.itemId) ?? "Item", quantity: line.quantity }));
    await enqueueEmails(sqlIn(tx), [await orderPartRefundEmail(before, { amountCents, refundedCents, lines }, shop)]);
  }
  return { changed: true, whole, refundedCents };
}

/** A refund Stripe lists on a charge: its id and amount. */
export type ListedRefund = { id: string; amount: number };

/**
 * A charge.refunded event (a refund made in Stripe's dashboard, or the echo of
 * the owner's): each refund it lists that the shop has not recorded is
 * recorded with its own amount; when Stripe lists none (recent API versions
 * do not), the shop asks Stripe for the payment's refunds (refundsBeyondRecord),
 * and only if Stripe lists none then either is what it says is refunded in all
 * beyond the shop's record recorded as one refund. A refund for a PaymentIntent no order holds yet
 * came before its payment's event (that delivery failed and Stripe retries it
 * later): it is kept, and the payment applies it when it arrives
 * (applyEarlyRefund), so the kitchen never hears of an order refunded whole.
 */
export async function recordStripeRefund(
  eventId: string,
  given: { paymentIntentId: string; refunded: boolean; amountRefunded: number; refundId: string | null; refunds?: readonly ListedRefund[] | null },
) {
  const charge = { ...given, refunds: given.refunds ?? (await refundsBeyondRecord(given)) };
  const settings = await shopSettings();
  const wholeRefunds = await inTransaction(async (tx) => {
    // One at a time per PaymentIntent with its payment (markOrderPaid takes the same lock): either the payment
    // is stored and this refund finds its order, or this refund is kept before the payment looks for it.
    await lockPaymentIntent(sqlIn(tx), charge.paymentIntentId);
    const order = await tx.order.findUnique({ where: { paymentIntentId: charge.paymentIntentId }, select: { id: true, refundedCents: true } });
    if (!order) {
      await tx.earlyRefund.upsert({
        where: { paymentIntentId: charge.paymentIntentId },
        create: { paymentIntentId: charge.paymentIntentId, eventId, refundId: charge.refundId, amountCents: charge.amountRefunded },
        // Stripe's events may come in any order: the one that says most was refunded is kept.
        update: charge.amountRefunded > 0 ? { amountCents: { set: charge.amountRefunded }, refundId: charge.refundId, eventId } : {},
      });
      console.warn(`A refund of PaymentIntent ${charge.paymentIntentId} came before its payment; it is applied when the payment arrives`);
      return 0;
    }
    const fromStripe = { reason: null, refundedBy: "Stripe" };
    let whole = 0;
    if (charge.refunds && charge.refunds.length > 0) {
      // Oldest first, as they were made.
      for (const listed of [...charge.refunds].reverse()) {
        const result = await recordRefundIn(tx, { orderId: order.id, refundId: listed.id, amountCents: listed.amount, ...fromStripe }, settings);
        if (result.changed && result.whole) whole += 1;
      }
      return whole;
    }
    const unknownCents = charge.amountRefunded - (order.refundedCents ?? 0);
    if (unknownCents <= 0) return 0;
    const result = await recordRefundIn(tx, { orderId: order.id, refundId: charge.refundId, amountCents: unknownCents, ...fromStripe }, settings);
    return result.changed && result.whole ? 1 : 0;
  });
  if (wholeRefunds > 0) metrics().ordersRefunded.inc(wholeRefunds);
}

/**
 * A charge.refunded that lists no refunds (Stripe leaves them out on recent
 * API versions): when it says more is refunded than the shop recorded for
 * that payment, Stripe is asked for the payment's refunds, so that each is
 * recorded under its own id and an owner's refund being recorded at that very
 * moment is not counted twice. Nothing beyond the record (the echo of a
 * refund already recorded), or no order yet: nothing to ask. A failed
 * question throws, and Stripe delivers the event again later.
 */
async function refundsBeyondRecord(charge: { paymentIntentId: string; amountRefunded: number }): Promise<ListedRefund[] | null> {
  const order = await db.order.findUnique({ where: { paymentIntentId: charge.paymentIntentId }, select: { refundedCents: true } });
  if (!order || charge.amountRefunded <= (order.refundedCents ?? 0)) return null;
  return listRefunds(charge.paymentIntentId);
}

/** Serialises the payment and the refund events of one PaymentIntent (a transaction-scoped advisory lock). */
export async function lockPaymentIntent(tx: Sql, paymentIntentId: string) {
  await advisoryXactLock(tx, `payment-intent:${paymentIntentId}`);
}

/**
 * Called by markOrderPaid, in its transaction and under lockPaymentIntent,
 * once the order is paid: a refund kept for this PaymentIntent is recorded at
 * once. Returns whether it refunded the order whole: then the customer is told
 * so, and neither the confirmation nor the kitchen's email goes out.
 */
export async function applyEarlyRefund(tx: Prisma.TransactionClient, orderId: string, paymentIntentId: string, shop: ShopFooter): Promise<boolean> {
  const early = await tx.earlyRefund.findUnique({ where: { paymentIntentId } });
  if (!early) return false;
  const { whole } = await recordRefundIn(tx, { orderId, refundId: early.refundId, amountCents: early.amountCents, reason: null, refundedBy: "Stripe" }, shop);
  await tx.earlyRefund.delete({ where: { paymentIntentId } });
  return whole;
}

/** How many pending refunds one pass of the checker asks Stripe about, oldest first; the rest wait for the next pass. */
const SETTLE_BATCH = 20;

type PendingRefund = {
  id: string;
  paymentIntentId: string | null;
  stripeSessionId: string | null;
  totalCents: number;
  refundedCents: number | null;
  refundReason: string | null;
  refundRequestedAt: Date;
  refundRequestedBy: string | null;
  refundRequestedCents: number | null;
  refundRequestKey: string | null;
  refundRequestLines: Prisma.JsonValue;
  refundRequestRestock: boolean;
};

/**
 * Asks Stripe again about each refund whose answer never came, with the
 * refund's idempotency key, so that Stripe answers with the refund it made
 * (or makes it now, if the first request never reached it): never a second
 * refund, however often and from however many instances it asks. Stripe's
 * refund is recorded (recordRefund: one email, one audit record); a refusal
 * ends the request and records why; no answer, or one that may change (5xx,
 * 409, 429), leaves it for the next pass. Answers how many were settled.
 */
export async function settlePendingRefunds(): Promise<number> {
  const pending = await db.order.findMany({
    where: { paymentStatus: "paid", refundRequestedAt: { not: null } },
    orderBy: { refundRequestedAt: "asc" },
    take: SETTLE_BATCH,
    select: {
      id: true,
      paymentIntentId: true,
      stripeSessionId: true,
      totalCents: true,
      refundedCents: true,
      refundReason: true,
      refundRequestedAt: true,
      refundRequestedBy: true,
      refundRequestedCents: true,
      refundRequestKey: true,
      refundRequestLines: true,
      refundRequestRestock: true,
    },
  });
  let settled = 0;
  for (const order of pending) {
    if (order.refundRequestedAt && (await settlePendingRefund({ ...order, refundRequestedAt: order.refundRequestedAt }))) settled += 1;
  }
  return settled;
}

/** One pending refund asked of Stripe again; true when Stripe's answer settled it here. */
async function settlePendingRefund(order: PendingRefund): Promise<boolean> {
  // A request kept before partial refunds existed was for the whole order, under the order's own key.
  const amountCents = order.refundRequestedCents ?? order.totalCents - (order.refundedCents ?? 0);
  const key = order.refundRequestKey ?? `refund-${order.id}`;
  let refund;
  try {
    const paymentIntentId = order.paymentIntentId ?? (order.stripeSessionId ? await findPaymentIntentId(order.stripeSessionId) : null);
    if (!paymentIntentId) return endRefundRequest(order, { code: null, message: "The order has no card payment at Stripe to refund." });
    refund = await refundPayment(order.id, paymentIntentId, { amountCents, key });
  } catch (error) {
    if (isAlreadyRefunded(error)) {
      // Refunded at Stripe (its dashboard, or this request once its key expired): Stripe's charge.refunded notice records it.
      console.warn(`Stripe says the payment of order ${order.id}, whose refund is pending, is already refunded; its charge.refunded notice will record it`);
      return false;
    }
    if (isRefusedByStripe(error)) return endRefundRequest(order, { code: error.code ?? null, message: firstLine(error.message) });
    console.warn(`Asking Stripe about the pending refund of order ${order.id} failed (${describeError(error)}); asking again on the next pass`);
    return false;
  }
  const lines = storedLines(order.refundRequestLines);
  const { changed } = await recordRefund({
    orderId: order.id,
    refundId: refund.id,
    amountCents: refund.amount,
    reason: order.refundReason,
    refundedBy: order.refundRequestedBy ?? "the shop",
    lines: lines.length > 0 ? lines : null,
    restock: order.refundRequestRestock,
  });
  return changed;
}

/** Why Stripe refused a refund, as its audit record keeps it: Stripe's code (charge_disputed …) and message. */
export type RefundRefusal = { code: string | null; message: string };

const firstLine = (text: string) =>
  (
    text
      .split("\n")
      .find((line) => line.trim())
      ?.trim() ?? ""
  ).slice(0, 300);

/**
 * Stripe refused a pending refund: the order is no longer waiting for one
 * (it stays paid; the owner may try again) and the audit trail says why.
 * Conditional on the request read, so that of several instances settling it
 * at once one writes the record.
 */
async function endRefundRequest(order: PendingRefund, refusal: RefundRefusal): Promise<boolean> {
  return inTransaction(async (tx) => {
    const { count } = await tx.order.updateMany({
      where: { id: order.id, paymentStatus: "paid", refundRequestedAt: order.refundRequestedAt },
      data: {
        refundRequestedAt: null,
        refundRequestedBy: null,
        refundReason: null,
        refundRequestedCents: null,
        refundRequestKey: null,
        refundRequestLines: Prisma.DbNull,
        refundRequestRestock: false,
      },
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
