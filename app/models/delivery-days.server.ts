import { sql as sqlText } from "kysely";
import { shopWallClock } from "~/lib/dates";
import { WEEKDAYS, deliveryDayLabel, type DeliverySchedule, type OfferedDate, type UnavailableReason } from "~/lib/delivery-schedule";
import { advisoryXactLock, sqlDb, type Sql } from "~/utils/db.server";

/**
 * The days a customer may choose for their delivery (issue 39, decision 100):
 * the days of the owner's schedule, counted in Los Angeles from now, less the
 * closed ones, those the address's zone is not served on and those full.
 * The rules are plain functions of the schedule, the clock and the places
 * taken, so the tests set the clock; the places taken are read here, and held
 * while an order is written (holdDeliveryPlace) the way its stock is.
 */

/** A calendar day, "YYYY-MM-DD". */
export type CalendarDate = string;

/** Orders holding a day's places: in all, and in each of its windows. */
export type DayTaken = { total: number; bySlot: Record<string, number> };

/** The days and windows held, by day. */
export type TakenPlaces = ReadonlyMap<CalendarDate, DayTaken>;

/** What the kitchen's clock reads at `now`: its calendar day and the minutes since its midnight. */
export function shopClock(now: Date): { date: CalendarDate; minutes: number } {
  const [date = "", time = "00:00"] = shopWallClock(now).split("T");
  return { date, minutes: minutesOf(time) };
}

/** "HH:MM" → minutes since midnight. */
export function minutesOf(time: string) {
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  return hours * 60 + minutes;
}

/** The calendar day `days` after `date` (before it when negative): calendar arithmetic, with no clock in it. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

const weekdayOf = (date: CalendarDate) => WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;

/** A schedule of a day per week at least goes round in a week; a year of closed dates bounds the rest. */
const SEARCH_LIMIT_DAYS = 400;

/** A day the kitchen works toward a delivery: one of the shop's weekdays, not closed. */
function isShopDay(schedule: DeliverySchedule, date: CalendarDate) {
  return schedule.days.includes(weekdayOf(date)) && !schedule.closedDates.includes(date);
}

/**
 * The earliest day an order placed at `now` can be delivered, before the
 * zone's days and the room are looked at: an order after the cutoff counts as
 * placed the next day, and the earliest day is the `leadDays`-th of the shop's
 * delivery days after that (weekends and closed dates are not counted), or
 * that day itself when it takes no lead. Null when the schedule has no such
 * day within a year.
 */
export function earliestDeliveryDay(schedule: DeliverySchedule, now: Date): CalendarDate | null {
  const today = shopClock(now);
  let day = today.minutes >= minutesOf(schedule.cutoff) ? addDays(today.date, 1) : today.date;
  if (schedule.leadDays === 0) {
    for (let step = 0; step < SEARCH_LIMIT_DAYS; step += 1, day = addDays(day, 1)) if (isShopDay(schedule, day)) return day;
    return null;
  }
  let counted = 0;
  for (let step = 0; step < SEARCH_LIMIT_DAYS; step += 1) {
    day = addDays(day, 1);
    if (isShopDay(schedule, day) && ++counted === schedule.leadDays) return day;
  }
  return null;
}

/**
 * The first day after today (Los Angeles) that any zone is delivered on and
 * that is not closed: the day the kitchen works toward next. Null when the
 * schedule has none within a year.
 */
export function nextDeliveryDay(schedule: DeliverySchedule, now: Date): CalendarDate | null {
  const served = new Set([...schedule.days, ...Object.values(schedule.zoneDays).flat()]);
  let day = shopClock(now).date;
  for (let step = 0; step < SEARCH_LIMIT_DAYS; step += 1) {
    day = addDays(day, 1);
    if (served.has(weekdayOf(day)) && !schedule.closedDates.includes(day)) return day;
  }
  return null;
}

/** The last day a customer may choose: `windowDays` after today in Los Angeles. */
export function lastDeliveryDay(schedule: DeliverySchedule, now: Date): CalendarDate {
  return addDays(shopClock(now).date, schedule.windowDays);
}

/** Why `date` is not a delivery day for `zone`, or null when it is one. */
function closedReason(schedule: DeliverySchedule, zone: string, date: CalendarDate): UnavailableReason | null {
  if (schedule.closedDates.includes(date)) return "closed";
  const weekday = weekdayOf(date);
  const zoneDays = schedule.zoneDays[zone];
  if (!zoneDays) return schedule.days.includes(weekday) ? null : "closed";
  if (zoneDays.includes(weekday)) return null;
  // The shop delivers that weekday elsewhere, not to this zone.
  const servedElsewhere = schedule.days.includes(weekday) || Object.values(schedule.zoneDays).some((days) => days.includes(weekday));
  return servedElsewhere ? "not served in your zone" : "closed";
}

/**
 * The days of the window from the earliest on, in order, for an address in
 * `zone`: each available, or not with why; each with its windows and whether
 * each has room. A day is full when its own limit is reached, or when it has
 * windows and none has room.
 */
export function datesOnOffer(schedule: DeliverySchedule, zone: string, now: Date, taken: TakenPlaces = new Map()): OfferedDate[] {
  const earliest = earliestDeliveryDay(schedule, now);
  if (!earliest) return [];
  const last = lastDeliveryDay(schedule, now);
  const dates: OfferedDate[] = [];
  for (let date = earliest; date <= last; date = addDays(date, 1)) {
    const label = deliveryDayLabel(date);
    const closed = closedReason(schedule, zone, date);
    if (closed) {
      dates.push({ date, label, available: false, reason: closed, slots: [] });
      continue;
    }
    const held = taken.get(date) ?? { total: 0, bySlot: {} };
    const dayFull = schedule.capacityPerDay !== null && held.total >= schedule.capacityPerDay;
    const slots = schedule.slots.map((slot) => ({
      id: slot.id,
      label: slot.label,
      available: !dayFull && (slot.capacity === null || (held.bySlot[slot.id] ?? 0) < slot.capacity),
    }));
    const full = dayFull || (slots.length > 0 && !slots.some((slot) => slot.available));
    dates.push(full ? { date, label, available: false, reason: "full", slots } : { date, label, available: true, slots });
  }
  return dates;
}

/** A day and window chosen: the window's id, or null for a schedule without windows. */
export type DeliveryChoice = { date: CalendarDate; slot: string | null };

/**
 * The choice a customer made, if the days on offer have it: a window must be
 * named when the schedule has windows, and none when it has none. Without a
 * day, the earliest available and its first window with room.
 */
export function pickDelivery(offered: OfferedDate[], wanted: { date?: string | null; slot?: string | null }): DeliveryChoice | null {
  const day = wanted.date ? offered.find((date) => date.date === wanted.date) : offered.find((date) => date.available);
  if (!day?.available) return null;
  if (day.slots.length === 0) return wanted.slot ? null : { date: day.date, slot: null };
  const slot = wanted.slot ? day.slots.find((candidate) => candidate.id === wanted.slot) : day.slots.find((candidate) => candidate.available);
  return slot?.available ? { date: day.date, slot: slot.id } : null;
}

/**
 * Orders that hold a place: placed and waiting on their payment page, or
 * paid, and not cancelled. A checkout given up or expired, and a refunded or
 * cancelled order, hold none.
 */
const HOLDING_PAYMENTS = ["unpaid", "paid"] as const;

/** The places taken on the days from `from` to `to`, by day and window. */
export async function takenPlaces(from: CalendarDate, to: CalendarDate, sql: Sql["db"] = sqlDb()): Promise<Map<CalendarDate, DayTaken>> {
  const rows = await sql
    .selectFrom("Order")
    // The count an int, not a bigint: the same row whether node-pg or Prisma's driver (inside its transaction) reads it.
    .select([sqlText<string>`to_char("deliveryDate", 'YYYY-MM-DD')`.as("date"), "deliverySlot", sqlText<number>`count(*)::int`.as("orders")])
    .where("deliveryDate", ">=", sqlText<Date>`${from}::date`)
    .where("deliveryDate", "<=", sqlText<Date>`${to}::date`)
    .where("paymentStatus", "in", HOLDING_PAYMENTS)
    .where("status", "<>", "cancelled")
    .groupBy(["deliveryDate", "deliverySlot"])
    .execute();
  const taken = new Map<CalendarDate, DayTaken>();
  for (const row of rows) {
    const day = taken.get(row.date) ?? { total: 0, bySlot: {} };
    day.total += row.orders;
    if (row.deliverySlot) day.bySlot[row.deliverySlot] = (day.bySlot[row.deliverySlot] ?? 0) + row.orders;
    taken.set(row.date, day);
  }
  return taken;
}

/** The days on offer now for an address in `zone`, with the places already taken (none are counted when no day or window is limited). */
export async function deliveryDatesFor(schedule: DeliverySchedule, zone: string, now = new Date()): Promise<OfferedDate[]> {
  const earliest = earliestDeliveryDay(schedule, now);
  const counted = earliest !== null && limitsRoom(schedule);
  const taken = counted ? await takenPlaces(earliest, lastDeliveryDay(schedule, now)) : new Map<CalendarDate, DayTaken>();
  return datesOnOffer(schedule, zone, now, taken);
}

/** Whether a schedule limits any day or window: without a limit, nothing needs holding. */
export function limitsRoom(schedule: DeliverySchedule) {
  return schedule.capacityPerDay !== null || schedule.slots.some((slot) => slot.capacity !== null);
}

/**
 * Inside the transaction that writes an order: takes the first of `choices`
 * (in order) that still has room, one writer per day at a time across every
 * instance (an advisory lock on the day, held until the transaction ends), so
 * that two checkouts never both take a day's last place. The order written in
 * the same transaction then holds it. Null when none has room.
 */
export async function holdDeliveryPlace(sql: Sql, schedule: DeliverySchedule, choices: DeliveryChoice[]): Promise<DeliveryChoice | null> {
  if (!limitsRoom(schedule)) return choices[0] ?? null;
  for (const choice of choices) {
    await advisoryXactLock(sql, `delivery-day:${choice.date}`);
    const held = (await takenPlaces(choice.date, choice.date, sql.db)).get(choice.date) ?? { total: 0, bySlot: {} };
    if (schedule.capacityPerDay !== null && held.total >= schedule.capacityPerDay) continue;
    const slot = schedule.slots.find((candidate) => candidate.id === choice.slot);
    if (slot && slot.capacity !== null && (held.bySlot[slot.id] ?? 0) >= slot.capacity) continue;
    return choice;
  }
  return null;
}

/** Every day and window on offer, in order: what an order without a chosen day may take, the earliest first. */
export function everyChoice(offered: OfferedDate[]): DeliveryChoice[] {
  return offered.flatMap((day): DeliveryChoice[] => {
    if (!day.available) return [];
    if (day.slots.length === 0) return [{ date: day.date, slot: null }];
    return day.slots.filter((slot) => slot.available).map((slot) => ({ date: day.date, slot: slot.id }));
  });
}
