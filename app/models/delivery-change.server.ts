import { sql as sqlText } from "kysely";
import { calendarDateOf, type OfferedDate } from "~/lib/delivery-schedule";
import { shippingSelect } from "~/lib/shipping-fields";
import { recordAudit } from "~/models/audit.server";
import { shopSettings } from "~/models/catalog.server";
import {
  addDays,
  datesOnOffer,
  deliveryDatesFor,
  holdDeliveryPlace,
  minutesOf,
  pickDelivery,
  shopClock,
  takenPlaces,
  type CalendarDate,
} from "~/models/delivery-days.server";
import { deliveryDayEmail } from "~/services/emails.server";
import { enqueueEmails } from "~/services/outbox.server";
import { db, inTransaction, sqlIn } from "~/utils/db.server";

/**
 * An order's delivery day changed after it was placed (issue 39 items 5 and
 * 6, decision 100): by its customer from their order page, among the days on
 * offer and until the cutoff the day before their day; or by an operator, to
 * any day from today on, beyond the day's room if they choose (they are told).
 * Either way the change is in the order's history and its customer is emailed.
 */

/** Orders whose day can still change: paid, and not yet on their way. */
const MOVABLE_STATUSES = ["pending", "preparing"] as const;

export type DeliveryMove =
  | { ok: true; date: CalendarDate; slot: string | null; slotLabel: string | null; warnings: string[] }
  | { ok: false; status: 404 | 409; error: string; dates?: OfferedDate[] };

/** Until when the customer may still change their day: the cutoff, Los Angeles time, on the day before it. */
export function customerMayChange(date: CalendarDate, cutoff: string, now: Date) {
  const clock = shopClock(now);
  const lastDay = addDays(date, -1);
  return clock.date < lastDay || (clock.date === lastDay && clock.minutes < minutesOf(cutoff));
}

const ORDER_COLUMNS = {
  id: true,
  status: true,
  paymentStatus: true,
  deliveryZone: true,
  distanceTenths: true,
  deliveryDate: true,
  deliverySlot: true,
  deliverySlotLabel: true,
  subtotalCents: true,
  discountCents: true,
  discountCode: true,
  shippingCents: true,
  totalCents: true,
  createdAt: true,
  ...shippingSelect,
  items: { select: { name: true, unitPriceCents: true, quantity: true }, orderBy: { id: "asc" } },
} as const;

/**
 * Moves an order to `date` (and window `slot`). `by` is "customer" (its own
 * page: only days on offer, with room, before the cutoff) or an operator's
 * email (any day from today on; `warnings` say what the day was: full,
 * closed, not served in the order's zone).
 */
export async function moveDelivery(
  orderId: string,
  wanted: { date: CalendarDate; slot: string | null },
  by: "customer" | { operator: string },
  now = new Date(),
): Promise<DeliveryMove> {
  const settings = await shopSettings({ maxAgeMs: 0 });
  const schedule = settings.delivery;
  return inTransaction(async (tx) => {
    // One move of an order at a time.
    await sqlIn(tx).db.selectFrom("Order").select("id").where("id", "=", orderId).forUpdate().execute();
    const order = await tx.order.findUnique({ where: { id: orderId }, select: ORDER_COLUMNS });
    if (!order) return { ok: false, status: 404, error: "No such order." };
    const movable = order.paymentStatus === "paid" && (MOVABLE_STATUSES as readonly string[]).includes(order.status);
    if (!movable) return { ok: false, status: 409, error: "This order is on its way or closed: its delivery day can no longer change." };
    const current = order.deliveryDate ? calendarDateOf(order.deliveryDate) : null;
    if (current === wanted.date && order.deliverySlot === wanted.slot) return { ok: false, status: 409, error: "That is already the order's delivery day." };

    const slot = wanted.slot ? schedule.slots.find((candidate) => candidate.id === wanted.slot) : null;
    if (wanted.slot && !slot) return { ok: false, status: 409, error: `The shop has no delivery window "${wanted.slot}".` };
    // The day's places, less this order's own (it gives its place up as it moves).
    const taken = await takenPlaces(wanted.date, wanted.date, sqlIn(tx).db);
    const day = taken.get(wanted.date);
    if (day && current === wanted.date) {
      day.total -= 1;
      if (order.deliverySlot) day.bySlot[order.deliverySlot] = (day.bySlot[order.deliverySlot] ?? 1) - 1;
    }
    const offered = datesOnOffer(schedule, order.deliveryZone, now, taken);
    const warnings: string[] = [];
    if (by === "customer") {
      if (current && !customerMayChange(current, schedule.cutoff, now)) {
        return { ok: false, status: 409, error: "Your delivery day can no longer be changed: please contact us." };
      }
      if (!pickDelivery(offered, { date: wanted.date, slot: wanted.slot })) {
        return { ok: false, status: 409, error: "That delivery day is no longer available. Please choose another day.", dates: offered };
      }
      // Taken under the day's lock, as a checkout takes it.
      if (!(await holdDeliveryPlace(sqlIn(tx), schedule, [{ date: wanted.date, slot: wanted.slot }]))) {
        return { ok: false, status: 409, error: "That delivery day is no longer available. Please choose another day.", dates: offered };
      }
    } else {
      if (wanted.date < shopClock(now).date) return { ok: false, status: 409, error: "A delivery day cannot be in the past." };
      const listed = offered.find((date) => date.date === wanted.date);
      if (listed?.reason)
        warnings.push(`${listed.label} is ${listed.reason === "full" ? "full" : listed.reason === "closed" ? "closed" : "not served in this order's zone"}`);
      const window = listed?.slots.find((candidate) => candidate.id === wanted.slot);
      if (window && !window.available && listed?.reason !== "full") warnings.push(`the ${window.label} window is full`);
    }

    const after = { deliveryDate: wanted.date, deliverySlot: slot?.id ?? null, deliverySlotLabel: slot?.label ?? null };
    await sqlIn(tx)
      .db.updateTable("Order")
      .set({ ...after, deliveryDate: sqlText<Date>`${wanted.date}::date`, updatedAt: new Date().toISOString() })
      .where("id", "=", orderId)
      .execute();
    await recordAudit(tx, {
      actorEmail: by === "customer" ? "customer" : by.operator,
      action: "order.delivery-day",
      subjectType: "order",
      subjectId: orderId,
      before: { deliveryDate: current, deliverySlot: order.deliverySlot, deliverySlotLabel: order.deliverySlotLabel },
      after,
    });
    const moved = { ...order, deliveryDate: new Date(`${wanted.date}T00:00:00Z`), deliverySlotLabel: after.deliverySlotLabel };
    await enqueueEmails(sqlIn(tx), [await deliveryDayEmail(moved, by === "customer" ? "customer" : "shop", settings)]);
    return { ok: true, date: wanted.date, slot: after.deliverySlot, slotLabel: after.deliverySlotLabel, warnings };
  });
}

/** The days a customer may move their order to now, from its own page; null when it can no longer change. */
export async function daysToMoveTo(orderId: string, now = new Date()) {
  const order = await db.order.findUnique({
    where: { id: orderId },
    select: { paymentStatus: true, status: true, deliveryZone: true, deliveryDate: true },
  });
  if (!order?.deliveryDate || order.paymentStatus !== "paid" || !(MOVABLE_STATUSES as readonly string[]).includes(order.status)) return null;
  const { delivery: schedule } = await shopSettings();
  if (!customerMayChange(calendarDateOf(order.deliveryDate), schedule.cutoff, now)) return null;
  return deliveryDatesFor(schedule, order.deliveryZone, now);
}
