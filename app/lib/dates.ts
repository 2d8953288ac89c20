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
