import type { Prisma } from "~/generated/prisma/client";
import { CANCELLABLE_STATUSES, shortOrderId, type OrderStatus } from "~/lib/orders";
import { recordAudit } from "~/models/audit.server";
import { closeOrderPayment } from "~/models/orders.server";
import { refundOrder, type RefundResult } from "~/models/refunds.server";
import { releaseStock } from "~/models/stock.server";
import { db, inTransaction, sqlIn } from "~/utils/db.server";

/**
 * The owner cancels an order the shop will not fulfil (issue 23, item 5;
 * decision 064), before it ships: a paid order is refunded in full first
 * (refundOrder, idempotent, Stripe first), and its customer gets one email,
 * the refund's, worded as a cancellation; its stock and its code's use come
 * back; an unpaid one has its payment page closed. `cancelled` is then its
 * status for good: the lists, badges, the dashboard and the customer's page
 * say so, and no status change moves it again.
 */

export type CancelResult =
  { ok: true; message: string } | { ok: false; reason: "shipped" } | { ok: false; reason: "refund-pending" } | Extract<RefundResult, { ok: false }>;

const isCancellable = (status: OrderStatus) => (CANCELLABLE_STATUSES as readonly OrderStatus[]).includes(status);

export async function cancelOrder({ orderId, reason, actorEmail }: { orderId: string; reason: string; actorEmail: string }): Promise<CancelResult> {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { id: true, status: true, paymentStatus: true, refundRequestedAt: true } });
  if (!order) return { ok: false, reason: "not-found" };
  const short = shortOrderId(order.id);
  if (order.status === "cancelled") return { ok: true, message: `Order ${short} was already cancelled.` };
  if (!isCancellable(order.status)) return { ok: false, reason: "shipped" };

  if (order.paymentStatus === "unpaid") {
    // Its payment page closes first, so it can never be paid afterwards; paid meanwhile, it is cancelled as a paid order.
    const closed = await closeOrderPayment(order.id, "cancelled");
    if (!closed.ok && closed.reason === "paid") return cancelOrder({ orderId, reason, actorEmail });
    if (!closed.ok) return { ok: false, reason: "payment-provider" };
  }
  if (order.paymentStatus === "paid") {
    if (order.refundRequestedAt) return { ok: false, reason: "refund-pending" };
    // Cancelled before the refund, so that the refund's one email tells the customer both; put back if the refund fails.
    const { count } = await db.order.updateMany({ where: { id: order.id, status: order.status }, data: { status: "cancelled" } });
    if (count === 0) return { ok: true, message: `Order ${short} was just changed by someone else; refresh to see it.` };
    const refund = await refundOrder({ orderId: order.id, reason, actorEmail });
    // A $0 order (a 100% code) took no money: nothing to refund, and no refund email to carry the news.
    if (!refund.ok && refund.reason === "no-charge") {
      await inTransaction((tx) => settleCancellation(tx, order.id, order.status, reason, actorEmail, true));
      return { ok: true, message: `Order ${short} is cancelled. It cost the customer nothing, so there is no refund.` };
    }
    if (!refund.ok) {
      await db.order.updateMany({ where: { id: order.id, status: "cancelled" }, data: { status: order.status } });
      return refund;
    }
    await inTransaction((tx) => settleCancellation(tx, order.id, order.status, reason, actorEmail, true));
    return {
      ok: true,
      message:
        refund.outcome === "pending"
          ? `Order ${short} is cancelled. Stripe did not answer the refund in time: the shop keeps asking and emails the customer once it is refunded.`
          : `Order ${short} is cancelled and refunded; the customer has been emailed.`,
    };
  }
  // Unpaid (now given up), expired, cancelled at payment, or already refunded: no money moves, and the customer has nothing new to hear.
  const done = await inTransaction(async (tx) => {
    const { count } = await tx.order.updateMany({ where: { id: order.id, status: order.status }, data: { status: "cancelled" } });
    if (count === 1) await settleCancellation(tx, order.id, order.status, reason, actorEmail, order.paymentStatus === "refunded");
    return count === 1;
  });
  return { ok: true, message: done ? `Order ${short} is cancelled.` : `Order ${short} was just changed by someone else; refresh to see it.` };
}

/**
 * What a cancelled order gives back and records: its stock, its code's use and
 * first-order claim (`codeHeld`: a paid or refunded order still holds them; a
 * checkout given up gave them back already), the status change and the audit entry.
 */
async function settleCancellation(tx: Prisma.TransactionClient, orderId: string, from: OrderStatus, reason: string, actorEmail: string, codeHeld: boolean) {
  // The code before the stock, in the order placing an order takes them (decision 080).
  if (codeHeld) {
    const { discountCode } = await tx.order.update({ where: { id: orderId }, data: { firstOrderClaim: null }, select: { discountCode: true } });
    if (discountCode) await tx.discountCode.updateMany({ where: { code: discountCode, usesHeld: { gt: 0 } }, data: { usesHeld: { decrement: 1 } } });
  }
  await releaseStock(sqlIn(tx), orderId);
  await tx.orderStatusChange.create({ data: { orderId, fromStatus: from, toStatus: "cancelled", changedBy: actorEmail } });
  await recordAudit(tx, {
    actorEmail,
    action: "order.cancel",
    subjectType: "order",
    subjectId: orderId,
    before: { status: from },
    after: { status: "cancelled", reason },
  });
}
