import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { dayAndTime, kitchenTime, longDate, shopWallClock, shopWallClockToInstant } from "./dates";

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

  it("reads a time on the shop's clock as the moment it names, across the daylight-saving changes", () => {
    expect(shopWallClockToInstant("2026-12-10T09:00")?.toISOString()).toBe("2026-12-10T17:00:00.000Z");
    expect(shopWallClockToInstant("2026-07-01T00:00")?.toISOString()).toBe("2026-07-01T07:00:00.000Z");
    // 2:30 on the spring-forward night does not exist: read an hour later, as the clocks go.
    expect(shopWallClockToInstant("2027-03-14T02:30")?.toISOString()).toBe("2027-03-14T10:30:00.000Z");
    expect(shopWallClockToInstant("2027-03-14T01:59")?.toISOString()).toBe("2027-03-14T09:59:00.000Z");
    // 1:30 on the fall-back night happens twice: the first, still daylight time.
    expect(shopWallClockToInstant("2026-11-01T01:30")?.toISOString()).toBe("2026-11-01T08:30:00.000Z");
    expect(shopWallClockToInstant("2026-11-01T02:00")?.toISOString()).toBe("2026-11-01T10:00:00.000Z");
    for (const nonsense of ["2026-02-30T09:00", "2026-12-10T24:00", "2026-12-10 09:00", "tomorrow", ""])
      expect(shopWallClockToInstant(nonsense), nonsense).toBeNull();
  });

  it("gives back, for any moment, the time its clock shows, and that time back as the moment (or its twin an hour earlier, in the repeated hour)", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2035-12-31T00:00:00Z"), noInvalidDate: true }), (moment) => {
        const minute = new Date(Math.floor(moment.getTime() / 60_000) * 60_000);
        const local = shopWallClock(minute);
        const back = shopWallClockToInstant(local)!;
        expect(shopWallClock(back)).toBe(local);
        expect([0, 60 * 60_000]).toContain(minute.getTime() - back.getTime());
      }),
    );
  });
});
