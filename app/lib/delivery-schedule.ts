/**
 * The owner's delivery schedule (issue 39, decision 100): the weekdays the
 * shop delivers, how many of them an order needs, the day's cutoff, how far
 * ahead a customer may choose, a day's and a window's room, closed dates and
 * the days each zone is served. Browser-safe: the types, the requirements'
 * promise as defaults, and the words the pages and emails say a day and the
 * schedule with. Which days are on offer is decided on the server
 * (app/models/delivery-days.server.ts).
 */

/** Weekdays as the schedule names them, Sunday first (as Date's getUTCDay counts them). */
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The week as the owner's Settings page lists it, Monday first. */
export const WEEK_FROM_MONDAY: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  sun: "Sunday",
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
};

/** What save-settings takes at most (app/models/delivery-schedule.server.ts), and what the Settings page offers. */
export const MAX_DELIVERY_SLOTS = 8;
export const MAX_CLOSED_DATES = 366;
/** A time of day as the schedule writes it, "HH:MM" from 00:00 to 23:59. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A window's id: what an order keeps (deliverySlot) and the checkout's radio buttons send after the day. */
export const SLOT_ID = /^[a-z0-9][a-z0-9-]{0,29}$/;

/** A delivery window of a day: "9am–12pm", from `start` to `end` (HH:MM, Los Angeles), with room for `capacity` orders (null: no limit). */
export type DeliverySlot = { id: string; label: string; start: string; end: string; capacity: number | null };

export type DeliverySchedule = {
  /** The weekdays the shop delivers. */
  days: Weekday[];
  /** The earliest day is this many delivery days after the day the order counts as placed. */
  leadDays: number;
  /** "HH:MM" in Los Angeles: an order after it counts as placed the next day. */
  cutoff: string;
  /** How many days ahead of today a customer may choose. */
  windowDays: number;
  /** Orders a day; null: no limit. */
  capacityPerDay: number | null;
  /** "YYYY-MM-DD" days without deliveries (holidays). */
  closedDates: string[];
  /** Optional windows of a day; none: the day is the only choice. */
  slots: DeliverySlot[];
  /** A zone's name → the weekdays it is served, in place of `days` (e.g. "premium": ["sat"]). */
  zoneDays: Record<string, Weekday[]>;
};

/** The requirements' promise (§9: 2-3 business days, shipped within 24 hours): what a shop whose owner has set nothing offers. */
export const DEFAULT_DELIVERY_SCHEDULE: DeliverySchedule = {
  days: ["mon", "tue", "wed", "thu", "fri"],
  leadDays: 2,
  cutoff: "14:00",
  windowDays: 14,
  capacityPerDay: null,
  closedDates: [],
  slots: [],
  zoneDays: {},
};

/** The shop's clock: every day and time of the schedule is read in Los Angeles. */
export const SHOP_TIME_ZONE = "America/Los_Angeles";

/** Why a day of the window cannot be chosen. */
export type UnavailableReason = "full" | "closed" | "not served in your zone";

/** A day of the window as get-delivery-dates answers it and the checkout shows it. */
export type OfferedDate = {
  date: string;
  label: string;
  available: boolean;
  reason?: UnavailableReason;
  slots: { id: string; label: string; available: boolean }[];
};

const dayLabel = new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" });

/** "2026-12-03" → "Thursday, December 3": a calendar day, whatever the reader's time zone. */
export function deliveryDayLabel(date: string) {
  return dayLabel.format(new Date(`${date}T12:00:00Z`));
}

/** A stored calendar day (a DATE column, read at UTC midnight) as "YYYY-MM-DD". */
export function calendarDateOf(day: Date) {
  return day.toISOString().slice(0, 10);
}

/** A stored order's day and window in words (its DATE column and window label), or null for an order without a day. */
export function orderDeliveryWhen(order: { deliveryDate: Date | null; deliverySlotLabel: string | null }) {
  return order.deliveryDate ? deliveryWhen(calendarDateOf(order.deliveryDate), order.deliverySlotLabel) : null;
}

/** What a page or email says of an order's day: "Thursday, December 3, 9am–12pm" (the window only when it has one). */
export function deliveryWhen(date: string, slotLabel: string | null | undefined) {
  return slotLabel ? `${deliveryDayLabel(date)}, ${slotLabel}` : deliveryDayLabel(date);
}

/** "14:00" → "2pm", "09:30" → "9:30am". */
export function clockLabel(time: string) {
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  const suffix = hours < 12 ? "am" : "pm";
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return minutes === 0 ? `${hour}${suffix}` : `${hour}:${String(minutes).padStart(2, "0")}${suffix}`;
}

/** The weekdays in words: consecutive runs as "Monday to Friday", others listed ("Tuesday, Thursday and Saturday"). */
export function weekdaysInWords(days: readonly Weekday[]) {
  const sorted = WEEKDAYS.filter((day) => days.includes(day));
  if (sorted.length === 0) return "no day";
  if (sorted.length === 7) return "every day";
  const indexes = sorted.map((day) => WEEKDAYS.indexOf(day));
  const consecutive = indexes.every((index, position) => position === 0 || index === indexes[position - 1]! + 1);
  const names = sorted.map((day) => WEEKDAY_NAMES[day]);
  if (consecutive && names.length > 2) return `${names[0]} to ${names[names.length - 1]}`;
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** What the storefront says of the schedule: "Choose your delivery day at checkout: Monday to Friday, order by 2pm for delivery in 2 days". */
export function scheduleSentence(schedule: Pick<DeliverySchedule, "days" | "cutoff" | "leadDays">) {
  const lead = schedule.leadDays === 0 ? "for delivery the same day" : `for delivery in ${schedule.leadDays} ${schedule.leadDays === 1 ? "day" : "days"}`;
  return `Choose your delivery day at checkout: ${weekdaysInWords(schedule.days)}, order by ${clockLabel(schedule.cutoff)} ${lead}`;
}

/**
 * A day and window as the checkout's radio buttons send it: "2026-12-03", or
 * "2026-12-03/morning" for a window of the day.
 */
export function deliveryOption(date: string, slot: string | null) {
  return slot ? `${date}/${slot}` : date;
}

/** The day and window of a checkout's radio button; null for anything else. */
export function parseDeliveryOption(value: string): { date: string; slot: string | null } | null {
  const [date = "", slot, ...rest] = value.split("/");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || rest.length > 0 || (slot !== undefined && !SLOT_ID.test(slot))) return null;
  return { date, slot: slot ?? null };
}

/** The words of a chosen option among the days offered: "Thursday, December 3, 9am–12pm"; null when it is not among them. */
export function chosenDeliveryWhen(dates: readonly OfferedDate[], option: string | null) {
  const chosen = option ? parseDeliveryOption(option) : null;
  const day = chosen && dates.find((date) => date.date === chosen.date);
  if (!chosen || !day) return null;
  const slot = chosen.slot ? day.slots.find((candidate) => candidate.id === chosen.slot) : null;
  if (chosen.slot && !slot) return null;
  return deliveryWhen(day.date, slot?.label);
}

/**
 * The title the storefront's delivery tile gives the schedule: the
 * requirements' "2-3 business days" while the owner keeps its promise (Monday
 * to Friday, 2 days after the order, by 2pm), else the days it delivers.
 */
export function scheduleTitle(schedule: Pick<DeliverySchedule, "days" | "cutoff" | "leadDays">) {
  const promised =
    schedule.leadDays === DEFAULT_DELIVERY_SCHEDULE.leadDays &&
    schedule.cutoff === DEFAULT_DELIVERY_SCHEDULE.cutoff &&
    weekdaysInWords(schedule.days) === weekdaysInWords(DEFAULT_DELIVERY_SCHEDULE.days);
  return promised ? "2-3 business days" : `Delivered ${weekdaysInWords(schedule.days)}`;
}
