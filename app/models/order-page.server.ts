import { calendarDateOf, deliveryOption, orderDeliveryWhen } from "~/lib/delivery-schedule";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { sqlDb, utcFromText } from "~/utils/sql.server";
import { lineTotalCents } from "~/models/pricing.server";
import { CATALOG_CHECK_INTERVAL_MS, findProducts } from "~/models/catalog.server";
import {
  FULFILMENT_STATUSES,
  ORDER_STATUS_LABELS,
  PAYMENT_STATUS_LABELS,
  TAKEN_PAYMENT_STATUSES,
  shortOrderId,
  type FulfilmentStatus,
  type OrderStatus,
} from "~/lib/orders";
import { trackingUrl } from "~/lib/tracking";
import { storedLines } from "~/models/refunds.server";

/**
 * The customer's order page (/orders/<id>?token=…, decision 023): where their
 * order is, with its dates, items, total, delivery city and tracking. Nothing
 * else about the customer: no name, email, street, ZIP or phone, and no
 * operator's name, so a forwarded link gives away nothing personal.
 */

export type OrderStep = { key: "placed" | "paid" | OrderStatus | "refunded"; label: string; at: string | null; done: boolean };

/**
 * The order with its lines, refunds and status changes, in one statement
 * (decision 068): each customer's visit reads it, and Prisma's include cost
 * more CPU than the rest of the page's render.
 */
async function readOrder(orderId: string) {
  const order = await sqlDb()
    .selectFrom("Order as o")
    .select([
      "o.id",
      "o.status",
      "o.paymentStatus",
      "o.createdAt",
      "o.paidAt",
      "o.city",
      "o.state",
      "o.subtotalCents",
      "o.discountCents",
      "o.shippingCents",
      "o.totalCents",
      "o.carrier",
      "o.trackingNumber",
      "o.refundedCents",
      "o.refundedAt",
      "o.deliveryDate",
      "o.deliverySlot",
      "o.deliverySlotLabel",
    ])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom("OrderItem as i")
          .select(["i.id", "i.productId", "i.name", "i.unitPriceCents", "i.quantity"])
          .whereRef("i.orderId", "=", "o.id")
          .orderBy("i.id"),
      ).as("items"),
      jsonArrayFrom(
        eb
          .selectFrom("Refund as r")
          .select((refund) => ["r.amountCents", "r.lines", refund.cast<string>("r.createdAt", "text").as("createdAt")])
          .whereRef("r.orderId", "=", "o.id")
          .orderBy(["r.createdAt", "r.id"]),
      ).as("refunds"),
      jsonArrayFrom(
        eb
          .selectFrom("OrderStatusChange as c")
          .select((change) => ["c.toStatus", change.cast<string>("c.changedAt", "text").as("changedAt")])
          .whereRef("c.orderId", "=", "o.id")
          .orderBy(["c.changedAt", "c.id"]),
      ).as("statusChanges"),
    ])
    .where("o.id", "=", orderId)
    .where("o.paymentStatus", "in", TAKEN_PAYMENT_STATUSES)
    .executeTakeFirst();
  if (!order) return null;
  return {
    ...order,
    refunds: order.refunds.map((refund) => ({ ...refund, createdAt: utcFromText(refund.createdAt) })),
    statusChanges: order.statusChanges.map((change) => ({ ...change, changedAt: utcFromText(change.changedAt) })),
  };
}

/** Only paid (or since refunded) orders have a page: no link is ever sent for an unpaid checkout. */
export async function findCustomerOrder(orderId: string) {
  const order = await readOrder(orderId);
  if (!order) return null;

  // The latest move into each status: an order moved back and forth shows when it last got there.
  const reached = new Map<OrderStatus, Date>();
  for (const change of order.statusChanges) reached.set(change.toStatus, change.changedAt);
  const cancelled = order.status === "cancelled";
  // A cancelled order reached the steps it was moved to before it was cancelled.
  const current = cancelled
    ? Math.max(0, ...[...reached.keys()].map((status) => FULFILMENT_STATUSES.indexOf(status as FulfilmentStatus)))
    : FULFILMENT_STATUSES.indexOf(order.status as FulfilmentStatus);
  const steps: OrderStep[] = [
    { key: "placed", label: "Order placed", at: order.createdAt.toISOString(), done: true },
    { key: "paid", label: "Payment received", at: order.paidAt?.toISOString() ?? null, done: true },
    ...FULFILMENT_STATUSES.slice(1).map((status, index) => ({
      key: status,
      label: ORDER_STATUS_LABELS[status],
      at: index + 1 <= current ? (reached.get(status)?.toISOString() ?? null) : null,
      done: index + 1 <= current,
    })),
  ];

  // A cancelled or refunded order goes no further: the steps it reached, then the cancellation and the refund.
  const shown: OrderStep[] =
    cancelled || order.paymentStatus === "refunded"
      ? [
          ...steps.filter((step) => step.done),
          ...(cancelled
            ? [{ key: "cancelled" as const, label: ORDER_STATUS_LABELS.cancelled, at: reached.get("cancelled")?.toISOString() ?? null, done: true }]
            : []),
          ...(order.paymentStatus === "refunded"
            ? [{ key: "refunded" as const, label: PAYMENT_STATUS_LABELS.refunded, at: order.refundedAt?.toISOString() ?? null, done: true }]
            : []),
        ]
      : steps;

  const pictures = new Map(
    (
      await findProducts(
        order.items.map((item) => item.productId),
        { maxAgeMs: CATALOG_CHECK_INTERVAL_MS },
      )
    ).map((product) => [product.id, product]),
  );
  const shipped = order.status === "shipped" || order.status === "delivered";
  const names = new Map(order.items.map((item) => [item.id, item.name]));
  return {
    id: order.id,
    shortId: shortOrderId(order.id),
    status: order.status,
    statusLabel: ORDER_STATUS_LABELS[order.status],
    placedAt: order.createdAt.toISOString(),
    steps: shown,
    city: order.city,
    state: order.state,
    items: order.items.map((item) => {
      const product = pictures.get(item.productId);
      return {
        name: item.name,
        quantity: item.quantity,
        lineCents: lineTotalCents(item.unitPriceCents, item.quantity),
        image: product ? { src: product.image, width: product.imageWidth, height: product.imageHeight } : null,
      };
    }),
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    tracking: shipped && order.carrier ? { carrier: order.carrier, number: order.trackingNumber, url: trackingUrl(order.carrier, order.trackingNumber) } : null,
    refund:
      order.paymentStatus === "refunded" && order.refundedAt
        ? { amountCents: order.refundedCents ?? order.totalCents, at: order.refundedAt.toISOString() }
        : null,
    /** Every refund, part or whole, oldest first (decision 066), with the items it was for when the shop chose them. */
    refunds: order.refunds.map((refund) => ({
      amountCents: refund.amountCents,
      at: refund.createdAt.toISOString(),
      lines: storedLines(refund.lines).map((line) => ({ name: names.get(line.itemId) ?? "Item", quantity: line.quantity })),
    })),
    refundedCents: order.refundedCents ?? 0,
    /** The delivery day its customer chose, in words, and as the day picker names it; null for an order placed before delivery days. */
    delivery: orderDeliveryWhen(order),
    deliveryOption: order.deliveryDate ? deliveryOption(calendarDateOf(order.deliveryDate), order.deliverySlot) : null,
  };
}

export type CustomerOrder = NonNullable<Awaited<ReturnType<typeof findCustomerOrder>>>;
