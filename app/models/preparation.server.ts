import { customerDetailsOf, shippingSelect } from "~/lib/shipping-fields";
import { initial } from "~/lib/masking";
import { PREPARATION_LIMIT, shortOrderId, type Preparation, type PreparationOrder } from "~/lib/orders";
import { recordAudits } from "~/models/audit.server";
import { shopSettings } from "~/models/catalog.server";
import type { Prisma } from "~/generated/prisma/client";
import { db } from "~/utils/db.server";

/**
 * The day's work (issue 23, item 2): every paid order not yet shipped, for the
 * kitchen (how many of each product to make) and the driver (the drop-offs,
 * zone by zone, nearest the kitchen first). Masked like every list; with
 * `customerDetails` (the owner's, for the packing slips and the day sheet)
 * each order carries who to deliver to, and each order listed records in its
 * history that its customer's details were shown, and to whom.
 */

const TO_PREPARE = { paymentStatus: "paid", status: { in: ["pending", "preparing"] } } satisfies Prisma.OrderWhereInput;

export async function getPreparation({
  customerDetails,
  actorEmail,
  orderIds,
}: {
  customerDetails: boolean;
  actorEmail: string;
  /** Only these of the orders to prepare (the ones printed): only their looks are recorded. */
  orderIds?: string[];
}): Promise<Preparation> {
  const where: Prisma.OrderWhereInput = { ...TO_PREPARE, ...(orderIds ? { id: { in: orderIds } } : {}) };
  const read = async (tx: Prisma.TransactionClient) => {
    const [rows, orderCount] = await Promise.all([
      tx.order.findMany({
        where,
        // The oldest first when there are more than the page lists: they have waited longest.
        orderBy: [{ createdAt: "asc" }],
        take: PREPARATION_LIMIT,
        select: {
          id: true,
          status: true,
          createdAt: true,
          deliveryZone: true,
          distanceTenths: true,
          ...shippingSelect,
          refundRequestedAt: true,
          items: { select: { productId: true, name: true, quantity: true }, orderBy: { name: "asc" } },
        },
      }),
      tx.order.count({ where }),
    ]);
    if (customerDetails) {
      await recordAudits(
        tx,
        rows.map((row) => ({ actorEmail, action: "order.customer-details", subjectType: "order", subjectId: row.id, before: null, after: null })),
      );
    }
    return { rows, orderCount };
  };
  // The record of each look and the details shown are one: both, or neither.
  const [{ rows, orderCount }, settings] = await Promise.all([customerDetails ? db.$transaction(read) : read(db), shopSettings()]);

  const orders: PreparationOrder[] = rows.map((row) => ({
    id: row.id,
    short_id: shortOrderId(row.id),
    status: row.status as PreparationOrder["status"],
    created_at: row.createdAt.toISOString(),
    zone: row.deliveryZone,
    distance_miles: row.distanceTenths / 10,
    items: row.items.map((item) => ({ product_id: item.productId, name: item.name, quantity: item.quantity })),
    customer: { initials: `${initial(row.firstName)}${initial(row.lastName)}`, city: row.city, state: row.state },
    delivery: customerDetails ? customerDetailsOf(row) : null,
    refund_pending: row.refundRequestedAt !== null,
  }));

  // The owner's zones in their order (nearest first); a zone an order was placed in that the settings no longer name comes after them.
  const zoneOrder = [...settings.zones.map((zone) => zone.name), ...new Set(orders.map((order) => order.zone))].filter(
    (name, index, all) => all.indexOf(name) === index,
  );
  const zones = zoneOrder
    .map((name) => ({
      name,
      up_to_miles: settings.zones.find((zone) => zone.name === name)?.upToMiles ?? null,
      orders: orders.filter((order) => order.zone === name).sort((a, b) => a.distance_miles - b.distance_miles || a.created_at.localeCompare(b.created_at)),
    }))
    .filter((zone) => zone.orders.length > 0);

  const totals = new Map<string, { product_id: string; name: string; quantity: number }>();
  for (const item of orders.flatMap((order) => order.items)) {
    const total = totals.get(item.product_id) ?? { product_id: item.product_id, name: item.name, quantity: 0 };
    total.quantity += item.quantity;
    totals.set(item.product_id, total);
  }
  const toMake = [...totals.values()].sort((a, b) => b.quantity - a.quantity || a.name.localeCompare(b.name));

  return { generated_at: new Date().toISOString(), zones, to_make: toMake, order_count: orderCount, listed_count: orders.length };
}
