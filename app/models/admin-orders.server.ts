import { z } from "zod";
import { db } from "~/utils/db.server";
import { orderStatusEmail } from "~/services/emails.server";
import type { Prisma } from "~/generated/prisma/client";
import { canonicalMailbox } from "~/lib/email";
import { initial, maskEmail } from "~/lib/masking";
import {
  ORDER_STATUSES,
  TAKEN_PAYMENT_STATUSES,
  shortOrderId,
  type MaskedOrder,
  type MaskedOrderWithHistory,
  type OrderStatus,
} from "~/lib/orders";
import { enqueueEmails } from "~/services/outbox.server";
import { trackingUrl, type Carrier } from "~/lib/tracking";

/**
 * The operator's view of orders (spec §6-§7): customer data is masked here,
 * on the server: name as initials, email as first letter + asterisks +
 * domain, location as city and state. Full details go only to the
 * fulfilment email.
 */

export const ordersQuerySchema = z
  .object({
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
    status: z.enum(ORDER_STATUSES).nullable().optional(),
    q: z.string().trim().max(100).optional(),
    sort: z.enum(["date_desc", "date_asc", "total_desc", "total_asc"]).default("date_desc"),
    /** Unpaid and expired checkouts are hidden unless asked for. */
    includeUnpaid: z.boolean().default(false),
  })
  .strict();

export type OrdersQuery = z.infer<typeof ordersQuerySchema>;

const orderSelect = {
  id: true,
  status: true,
  paymentStatus: true,
  createdAt: true,
  totalCents: true,
  email: true,
  firstName: true,
  lastName: true,
  city: true,
  state: true,
  chefNotified: true,
  preparingSent: true,
  shippedSent: true,
  deliveredSent: true,
  carrier: true,
  trackingNumber: true,
  refundedCents: true,
  refundReason: true,
  refundedBy: true,
  refundedAt: true,
  items: { select: { productId: true, name: true, unitPriceCents: true, quantity: true } },
} satisfies Prisma.OrderSelect;

type OrderRow = Prisma.OrderGetPayload<{ select: typeof orderSelect }>;

/** The spec's admin order (§3), masked. Money in dollars as the spec's client reads it, and in cents. */
function maskOrder(order: OrderRow): MaskedOrder {
  return {
    id: order.id,
    status: order.status,
    payment_status: order.paymentStatus,
    created_at: order.createdAt.toISOString(),
    total: order.totalCents / 100,
    total_cents: order.totalCents,
    items: order.items.map((item) => ({
      product: { id: item.productId, name: item.name, price: item.unitPriceCents / 100 },
      quantity: item.quantity,
    })),
    customer_email: maskEmail(order.email),
    shipping_info: {
      firstName: initial(order.firstName),
      lastName: initial(order.lastName),
      city: order.city,
      state: order.state,
    },
    chef_notified: order.chefNotified,
    preparing_sent: order.preparingSent,
    shipped_sent: order.shippedSent,
    delivered_sent: order.deliveredSent,
    tracking:
      order.carrier || order.trackingNumber
        ? { carrier: order.carrier, number: order.trackingNumber, url: trackingUrl(order.carrier, order.trackingNumber) }
        : null,
    refund:
      order.paymentStatus === "refunded" && order.refundedAt
        ? {
            amount_cents: order.refundedCents ?? order.totalCents,
            reason: order.refundReason,
            refunded_by: order.refundedBy,
            refunded_at: order.refundedAt.toISOString(),
          }
        : null,
  };
}

/** Matches nothing: for a search term that can be neither an order id nor a domain. */
const NO_ORDER: Prisma.OrderWhereInput = { id: { in: [] } };

function searchWhere(q: string | undefined): Prisma.OrderWhereInput {
  if (!q) return {};
  const term = q.toLowerCase();
  // "example.com" or "@example.com" searches by email domain; hex and dashes by order id prefix.
  // Only those characters get through, so LIKE's % and _ can never act as wildcards.
  if (term.includes(".") || term.startsWith("@")) {
    const domain = term.replace(/^@/, "");
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) return NO_ORDER;
    // The canonical mailbox is lower case on every database (PostgreSQL's LIKE
    // minds case, SQLite's does not), with googlemail.com folded into gmail.com.
    return { mailbox: { endsWith: canonicalMailbox(`x@${domain}`).slice(1) } };
  }
  return /^[0-9a-f-]+$/.test(term) ? { id: { startsWith: term } } : NO_ORDER;
}

export async function listOrders(query: OrdersQuery) {
  const where: Prisma.OrderWhereInput = {
    // Refunded orders stay in the list: they were real orders, and the operator needs to see them.
    ...(query.includeUnpaid ? {} : { paymentStatus: { in: [...TAKEN_PAYMENT_STATUSES] } }),
    ...(query.status ? { status: query.status } : {}),
    ...searchWhere(query.q),
  };
  const orderBy: Prisma.OrderOrderByWithRelationInput[] = {
    date_desc: [{ createdAt: "desc" as const }],
    date_asc: [{ createdAt: "asc" as const }],
    total_desc: [{ totalCents: "desc" as const }, { createdAt: "desc" as const }],
    total_asc: [{ totalCents: "asc" as const }, { createdAt: "desc" as const }],
  }[query.sort];
  const [rows, total] = await Promise.all([
    db.order.findMany({ where, orderBy, skip: (query.page - 1) * query.pageSize, take: query.pageSize, select: orderSelect }),
    db.order.count({ where }),
  ]);
  return { orders: rows.map(maskOrder), total };
}

export async function getOrderWithHistory(orderId: string): Promise<MaskedOrderWithHistory | null> {
  const order = await db.order.findUnique({
    where: { id: orderId },
    select: {
      ...orderSelect,
      statusChanges: { orderBy: { changedAt: "asc" }, select: { fromStatus: true, toStatus: true, changedBy: true, changedAt: true } },
    },
  });
  if (!order) return null;
  return {
    ...maskOrder(order),
    history: order.statusChanges.map((change) => ({
      from: change.fromStatus,
      to: change.toStatus,
      changed_by: change.changedBy,
      changed_at: change.changedAt.toISOString(),
    })),
  };
}

export type StatusUpdate =
  | { ok: true; message: string }
  | { ok: false; reason: "not-found" | "not-paid" | "refunded" };

/** Given only with the "shipped" status (the route refuses it with any other). */
export type Tracking = { carrier: Carrier | null; trackingNumber: string | null };

/**
 * Sets an order's fulfilment status (any to any, spec §4), records who did it,
 * and queues the customer's status email in the same transaction. "Shipped"
 * may carry the carrier and tracking number, which the email then gives; for
 * an order already shipped they only correct its tracking (no new email).
 */
export async function updateOrderStatus(
  orderId: string,
  newStatus: OrderStatus,
  changedBy: string,
  tracking: Tracking | null = null,
): Promise<StatusUpdate> {
  return db.$transaction(async (tx) => {
    const order = await tx.order.findUnique({ where: { id: orderId }, include: { items: true } });
    if (!order) return { ok: false, reason: "not-found" };
    // Its customer has their money back, and must not be told it is on its way.
    if (order.paymentStatus === "refunded") return { ok: false, reason: "refunded" };
    // An unpaid checkout is not an order to fulfil, and its customer must not be told it shipped.
    if (order.paymentStatus !== "paid") return { ok: false, reason: "not-paid" };
    const short = shortOrderId(order.id);
    const trackingData = tracking && newStatus === "shipped" ? { carrier: tracking.carrier, trackingNumber: tracking.trackingNumber } : {};
    if (order.status === newStatus) {
      if (!tracking || newStatus !== "shipped") return { ok: true, message: `Order ${short} is already ${newStatus}.` };
      await tx.order.update({ where: { id: orderId }, data: trackingData });
      return { ok: true, message: `Tracking for order ${short} updated.` };
    }
    // Conditional on the status just read, so two operators cannot both make this change.
    const { count } = await tx.order.updateMany({ where: { id: orderId, status: order.status }, data: { status: newStatus, ...trackingData } });
    if (count === 0) return { ok: true, message: `Order ${short} was just changed by someone else; refresh to see it.` };
    await tx.orderStatusChange.create({ data: { orderId, fromStatus: order.status, toStatus: newStatus, changedBy } });
    if (newStatus !== "pending") await enqueueEmails(tx, [orderStatusEmail({ ...order, ...trackingData }, newStatus)]);
    return { ok: true, message: `Order ${short} is now ${newStatus}.` };
  });
}

/** Today's orders and revenue, and orders per day for the last 30 days (Los Angeles days). */
export async function dashboardStats(now = new Date()) {
  const since = new Date(now.getTime() - 31 * 24 * 60 * 60 * 1000);
  const paid = await db.order.findMany({
    where: { paymentStatus: "paid", createdAt: { gte: since } },
    select: { createdAt: true, totalCents: true, status: true },
  });
  const day = (date: Date) => date.toLocaleDateString("en-CA", { timeZone: "America/Los_Angeles" });
  // Whole calendar days back from today in Los Angeles: 24-hour steps would
  // repeat or skip a day when the clocks change.
  const [year, month, date] = day(now).split("-").map(Number) as [number, number, number];
  const days = new Map<string, { orders: number; revenueCents: number }>();
  for (let offset = 29; offset >= 0; offset--) {
    days.set(new Date(Date.UTC(year, month - 1, date - offset)).toISOString().slice(0, 10), { orders: 0, revenueCents: 0 });
  }
  for (const order of paid) {
    const bucket = days.get(day(order.createdAt));
    if (!bucket) continue;
    bucket.orders++;
    bucket.revenueCents += order.totalCents;
  }
  const today = days.get(day(now)) ?? { orders: 0, revenueCents: 0 };
  const open = await db.order.count({ where: { paymentStatus: "paid", status: { in: ["pending", "preparing"] } } });
  return {
    today: { orders: today.orders, revenue: today.revenueCents / 100 },
    openOrders: open,
    last30Days: [...days].map(([date, bucket]) => ({ date, orders: bucket.orders, revenue: bucket.revenueCents / 100 })),
  };
}
