import { z } from "zod";
import { MAX_CLOSED_DATES, MAX_DELIVERY_SLOTS, SLOT_ID, TIME_OF_DAY, WEEKDAYS, type DeliverySchedule } from "~/lib/delivery-schedule";

/**
 * The delivery schedule (app/lib/delivery-schedule.ts) as save-settings takes
 * it and as the settings row stores it (decision 100): one shape, JSON, in
 * Los Angeles' days and times. Checked whole, each refusal by its path
 * ("delivery.slots.1.end"), as the rest of Settings is. Typed by
 * DeliverySchedule, so a term added there fails the typecheck here until it is
 * checked. Here, not in app/lib: zod stays out of the storefront's browser code.
 */

const time = (label: string) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} must be a time (HH:MM)` })
    .regex(TIME_OF_DAY, `${label} is a time from 00:00 to 23:59 (HH:MM)`);

/** A count of orders, or null for no limit. */
const room = (label: string) =>
  z
    .number({ invalid_type_error: `${label} must be a number of orders, or empty for no limit` })
    .int(`${label} is a whole number of orders`)
    .min(1, `${label} is at least 1 order (leave it empty for no limit)`)
    .max(10_000, `${label} is at most 10,000 orders`)
    .nullable();

const weekdays = (label: string) =>
  z
    .array(z.enum(WEEKDAYS, { errorMap: () => ({ message: `Days are ${WEEKDAYS.join(", ")}` }) }), {
      required_error: `${label} are required`,
      invalid_type_error: `${label} must be a list of weekdays`,
    })
    .min(1, `Choose at least one day for ${label.toLowerCase()}`)
    .transform((days) => WEEKDAYS.filter((day) => days.includes(day)));

/** A real calendar day, "YYYY-MM-DD", as the functions take one (a delivery day, a day's list). */
export const calendarDay = z
  .string({ required_error: "is required", invalid_type_error: "must be a day, e.g. 2026-12-10" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, e.g. 2026-12-10")
  .refine(isCalendarDay, "is no such day");

/** Zod runs this after a failed pattern too: text that is no date at all is "no such day", never a thrown RangeError (a 500). */
function isCalendarDay(value: string) {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** A closed date, in the Settings page's words. */
const calendarDate = z
  .string({ invalid_type_error: "A closed date is a day (YYYY-MM-DD)" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "A closed date is a day (YYYY-MM-DD)")
  .refine(isCalendarDay, "No such day");

const slotSchema = z
  .object({
    id: z
      .string({ required_error: "Id is required", invalid_type_error: "Id must be text" })
      .regex(SLOT_ID, "Id is up to 30 lower-case letters, digits and dashes"),
    label: z
      .string({ required_error: "Label is required", invalid_type_error: "Label must be text" })
      .trim()
      .min(1, "Label is required")
      .max(40, "Label can be at most 40 characters"),
    start: time("Start"),
    end: time("End"),
    capacity: room("Room"),
  })
  .superRefine((slot, context) => {
    if (slot.end <= slot.start) context.addIssue({ code: "custom", path: ["end"], message: `Ends after it starts (${slot.start})` });
  });

/** The schedule as save-settings takes it and the settings row keeps it (read back through it too: never cast). */
export const deliveryScheduleSchema: z.ZodType<DeliverySchedule, z.ZodTypeDef, unknown> = z
  .object({
    days: weekdays("Delivery days"),
    leadDays: z
      .number({ required_error: "Lead days are required", invalid_type_error: "Lead days must be a number" })
      .int("Lead days are a whole number")
      .min(0, "Lead days cannot be negative")
      .max(30, "Lead days are at most 30"),
    cutoff: time("Cutoff"),
    windowDays: z
      .number({ required_error: "Days ahead are required", invalid_type_error: "Days ahead must be a number" })
      .int("Days ahead are a whole number")
      .min(1, "Days ahead are at least 1")
      .max(90, "Days ahead are at most 90"),
    capacityPerDay: room("Orders a day"),
    closedDates: z
      .array(calendarDate, { invalid_type_error: "Closed dates must be a list of days" })
      .max(MAX_CLOSED_DATES, `At most ${MAX_CLOSED_DATES} closed dates`)
      .transform((dates) => [...new Set(dates)].sort()),
    slots: z.array(slotSchema, { invalid_type_error: "Windows must be a list" }).max(MAX_DELIVERY_SLOTS, `At most ${MAX_DELIVERY_SLOTS} windows`),
    zoneDays: z.record(z.string(), weekdays("A zone's days"), { invalid_type_error: "Zone days must name zones" }),
  })
  .strict()
  .superRefine((schedule, context) => {
    const ids = new Set<string>();
    schedule.slots.forEach((slot, index) => {
      if (ids.has(slot.id)) context.addIssue({ code: "custom", path: ["slots", index, "id"], message: `Another window is "${slot.id}"` });
      ids.add(slot.id);
    });
  });

/** The zones a schedule names in zoneDays that the shop does not have: refused by save-settings. */
export function unknownZones(schedule: Pick<DeliverySchedule, "zoneDays">, zoneNames: readonly string[]) {
  return Object.keys(schedule.zoneDays).filter((name) => !zoneNames.includes(name));
}
