// The shop's clocks: dates and times written as Los Angeles reads them, on
// the server and in the browser alike. Each formatter is made once:
// `toLocaleString` with options builds a new one on every call (0.1–0.4 ms
// each), which was the costliest line of the order page and the confirmation
// page's render (README, "The pages rendered for one customer").

const SHOP_TIME_ZONE = "America/Los_Angeles";

const longDay = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: SHOP_TIME_ZONE });

const shortDayAndTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: SHOP_TIME_ZONE,
});

const kitchenClock = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: SHOP_TIME_ZONE,
  timeZoneName: "short",
});

/** A day: "November 26, 2026". */
export const longDate = (at: string | Date) => longDay.format(new Date(at));

/** A moment in an order's progress: "Nov 26, 8:15 AM". */
export const dayAndTime = (at: string | Date) => shortDayAndTime.format(new Date(at));

/** When an order was placed, as the kitchen reads it: "Wed, Nov 25, 2026, 9:41 AM PST". */
export const kitchenTime = (at: Date) => kitchenClock.format(at);

const wallClockParts = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: SHOP_TIME_ZONE,
});

/** A moment on the shop's clock, as a `datetime-local` field holds it: "2026-12-10T09:00" (Los Angeles). */
export function shopWallClock(at: string | Date): string {
  const parts = Object.fromEntries(wallClockParts.formatToParts(new Date(at)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * The moment a time on the shop's clock names ("2026-12-10T09:00" in Los
 * Angeles), or null for text that is no such time. A time the spring-forward
 * hour skips is read an hour later, as clocks read it; one the fall-back
 * hour repeats is its first occurrence.
 */
export function shopWallClockToInstant(local: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The zone's offsets a day either side: the moments they give that read back as `local`, the first of them.
  const offsetAt = (instant: number) => Date.parse(`${shopWallClock(new Date(instant))}:00Z`) - instant;
  const DAY = 24 * 60 * 60 * 1000;
  const before = asUtc - offsetAt(asUtc - DAY);
  const after = asUtc - offsetAt(asUtc + DAY);
  const readsBack = [before, after].filter((instant) => shopWallClock(new Date(instant)) === local);
  // None does in the hour clocks skip: read with the offset before the change, which lands an hour later.
  return new Date(readsBack.length > 0 ? Math.min(...readsBack) : before);
}
