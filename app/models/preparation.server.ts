import { customerDetailsOf, shippingFields } from "~/lib/shipping-fields";
import { initial } from "~/lib/masking";
import { PREPARATION_LIMIT, shortOrderId, type Preparation, type PreparationOrder } from "~/lib/orders";
import { recordAudits } from "~/models/audit.server";
import { shopSettings } from "~/models/catalog.server";
import { sqlDb, type SqlDatabase } from "~/utils/db.server";
import { sql as sqlText } from "kysely";
import { calendarDateOf } from "~/lib/delivery-schedule";
import { nextDeliveryDay } from "~/models/delivery-days.server";

/**
 * The day's work (issue 23, item 2): every paid order not yet shipped, for the
 * kitchen (how many of each product to make) and the driver (the drop-offs,
 * zone by zone, nearest the kitchen first). Masked like every list; with
 * `customerDetails` (the owner's, for the packing slips and the day sheet)
 * each order carries who to deliver to, and each order listed records in its
 * history that its customer's details were shown, and to whom.
 */

/**
 * The orders to prepare, as the partial index "Order_to_prepare_idx" holds
 * them (migration 024): paid, pending or preparing. The values are literals in
 * the statement, so the planner matches them to the index's predicate.
 */
function toPrepare(sql: SqlDatabase, orderIds: string[] | undefined, deliveryDate: string | undefined) {
  let query = sql
    .selectFrom("Order")
    .where("paymentStatus", "=", sqlText.lit("paid"))
    .where("status", "in", [sqlText.lit<"pending">("pending"), sqlText.lit<"preparing">("preparing")]);
  if (orderIds) query = query.where("id", "in", orderIds.length > 0 ? orderIds : [""]);
  // One day's deliveries, and the orders placed before delivery days (they have none, and wait as they did).
  if (deliveryDate) query = query.where((eb) => eb.or([eb("deliveryDate", "=", sqlText<Date>`${deliveryDate}::date`), eb("deliveryDate", "is", null)]));
  return query;
}

export async function getPreparation({
  customerDetails,
  actorEmail,
  orderIds,
  deliveryDate,
}: {
  customerDetails: boolean;
  actorEmail: string;
  /** Only these of the orders to prepare (the ones printed): only their looks are recorded. */
  orderIds?: string[];
  /** Only this delivery day's (and those placed before delivery days). */
  deliveryDate?: string;
}): Promise<Preparation> {
  // Through Kysely over node-pg (decision 068): 500 orders and their lines
  // cost Prisma's engine some 40 ms of CPU to read back, node-pg a few.
  const read = async (sql: SqlDatabase) => {
    const [rows, counted] = await Promise.all([
      toPrepare(sql, orderIds, deliveryDate)
        .select([
          "id",
          "status",
          "createdAt",
          "deliveryZone",
          "distanceTenths",
          "refundRequestedAt",
          "deliveryDate",
          "deliverySlot",
          "deliverySlotLabel",
          ...shippingFields,
        ])
        // The oldest first when there are more than the page lists: they have waited longest.
        .orderBy("createdAt", "asc")
        .orderBy("id", "asc")
        .limit(PREPARATION_LIMIT)
        .execute(),
      toPrepare(sql, orderIds, deliveryDate)
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirst(),
    ]);
    const items =
      rows.length === 0
        ? []
        : await sql
            .selectFrom("OrderItem")
            .select(["orderId", "productId", "name", "quantity"])
            .where(
              "orderId",
              "in",
              rows.map((row) => row.id),
            )
            .orderBy("name", "asc")
            .execute();
    return { rows, items, orderCount: Number(counted?.count ?? 0) };
  };
  const [{ rows, items, orderCount }, settings] = await Promise.all([read(sqlDb()), shopSettings()]);
  if (customerDetails) {
    // Every look recorded before any detail is shown, in one INSERT: a failed write shows none. Read
    // inside a Prisma transaction instead, the 500 orders came back through Prisma's engine: 30-50 ms more a call.
    await recordAudits(
      sqlDb(),
      rows.map((row) => ({ actorEmail, action: "order.customer-details", subjectType: "order", subjectId: row.id, before: null, after: null })),
    );
  }
  const itemsOf = new Map<string, typeof items>();
  for (const item of items) {
    const lines = itemsOf.get(item.orderId);
    if (lines) lines.push(item);
    else itemsOf.set(item.orderId, [item]);
  }

  const orders: PreparationOrder[] = rows.map((row) => ({
    id: row.id,
    short_id: shortOrderId(row.id),
    status: row.status as PreparationOrder["status"],
    created_at: row.createdAt.toISOString(),
    zone: row.deliveryZone,
    distance_miles: row.distanceTenths / 10,
    items: (itemsOf.get(row.id) ?? []).map((item) => ({ product_id: item.productId, name: item.name, quantity: item.quantity })),
    customer: { initials: `${initial(row.firstName)}${initial(row.lastName)}`, city: row.city, state: row.state },
    delivery: customerDetails ? customerDetailsOf(row) : null,
    refund_pending: row.refundRequestedAt !== null,
    delivery_date: row.deliveryDate ? calendarDateOf(row.deliveryDate) : null,
    delivery_slot: row.deliverySlot,
    delivery_slot_label: row.deliverySlotLabel,
  }));
  // Each window's stops together (in the owner's order of windows, the orders without one first), nearest first in each.
  const windowOrder = (order: PreparationOrder) => (order.delivery_slot ? 1 + settings.delivery.slots.findIndex((slot) => slot.id === order.delivery_slot) : 0);

  // The owner's zones in their order (nearest first); a zone an order was placed in that the settings no longer name comes after them.
  const zoneOrder = [...settings.zones.map((zone) => zone.name), ...new Set(orders.map((order) => order.zone))].filter(
    (name, index, all) => all.indexOf(name) === index,
  );
  const zones = zoneOrder
    .map((name) => ({
      name,
      up_to_miles: settings.zones.find((zone) => zone.name === name)?.upToMiles ?? null,
      orders: orders
        .filter((order) => order.zone === name)
        .sort((a, b) => windowOrder(a) - windowOrder(b) || a.distance_miles - b.distance_miles || a.created_at.localeCompare(b.created_at)),
    }))
    .filter((zone) => zone.orders.length > 0);

  const totals = new Map<string, { product_id: string; name: string; quantity: number }>();
  for (const item of orders.flatMap((order) => order.items)) {
    const total = totals.get(item.product_id) ?? { product_id: item.product_id, name: item.name, quantity: 0 };
    total.quantity += item.quantity;
    totals.set(item.product_id, total);
  }
  const toMake = [...totals.values()].sort((a, b) => b.quantity - a.quantity || a.name.localeCompare(b.name));

  return {
    generated_at: new Date().toISOString(),
    delivery_date: deliveryDate ?? null,
    next_delivery_date: nextDeliveryDay(settings.delivery, new Date()),
    zones,
    to_make: toMake,
    order_count: orderCount,
    listed_count: orders.length,
  };
}
