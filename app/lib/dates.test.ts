import { describe, expect, it } from "vitest";
import { dayAndTime, kitchenTime, longDate } from "./dates";

describe("the shop's clocks (Los Angeles, whatever the machine's time zone)", () => {
  it("writes a day as the order pages do", () => {
    // 02:30 UTC on the 27th is still the 26th in Los Angeles.
    expect(longDate("2026-11-27T02:30:00.000Z")).toBe("November 26, 2026");
    expect(longDate(new Date("2026-07-04T19:00:00.000Z"))).toBe("July 4, 2026");
  });

  it("writes a step's moment with its time", () => {
    expect(dayAndTime("2026-11-26T16:15:00.000Z")).toBe("Nov 26, 8:15 AM");
    // Summer time: seven hours behind UTC.
    expect(dayAndTime("2026-07-04T19:05:00.000Z")).toBe("Jul 4, 12:05 PM");
  });

  it("writes the kitchen's time with the zone's name", () => {
    expect(kitchenTime(new Date("2026-11-25T17:41:00.000Z"))).toBe("Wed, Nov 25, 2026, 9:41 AM PST");
  });
});
