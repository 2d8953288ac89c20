import { describe, expect, it } from "vitest";
import { DEFAULT_DELIVERY_SCHEDULE, deliveryDayLabel, deliveryWhen, scheduleSentence, scheduleTitle, type DeliverySchedule } from "~/lib/delivery-schedule";
import { addDays, datesOnOffer, earliestDeliveryDay, everyChoice, pickDelivery, shopClock, type DayTaken } from "~/models/delivery-days.server";

/** The schedule with `change` made: the requirements' promise otherwise (weekdays, 2 days ahead, by 2pm, 14 days). */
const schedule = (change: Partial<DeliverySchedule> = {}): DeliverySchedule => ({ ...DEFAULT_DELIVERY_SCHEDULE, ...change });

/** An instant, written as UTC so that each test says exactly which moment it means. */
const utc = (iso: string) => new Date(`${iso}Z`);

const available = (dates: ReturnType<typeof datesOnOffer>) => dates.filter((date) => date.available).map((date) => date.date);

describe("the kitchen's clock", () => {
  it("reads Los Angeles' day and time, in standard and in daylight time", () => {
    // 18:00 UTC in December is 10:00 PST; in July 11:00 PDT.
    expect(shopClock(utc("2026-12-07T18:00:00"))).toEqual({ date: "2026-12-07", minutes: 10 * 60 });
    expect(shopClock(utc("2026-07-07T18:00:00"))).toEqual({ date: "2026-07-07", minutes: 11 * 60 });
    // 07:30 UTC is still the evening before in Los Angeles.
    expect(shopClock(utc("2026-12-08T07:30:00"))).toEqual({ date: "2026-12-07", minutes: 23 * 60 + 30 });
  });

  it("adds calendar days across months, years and the daylight-time changes", () => {
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addDays("2027-03-13", 2)).toBe("2027-03-15");
    expect(addDays("2026-11-01", -1)).toBe("2026-10-31");
  });
});

describe("the earliest delivery day (2 delivery days after the order, by 2pm)", () => {
  it("before the cutoff counts from today, after it from tomorrow", () => {
    // Monday, December 7 2026.
    expect(earliestDeliveryDay(schedule(), utc("2026-12-07T18:00:00"))).toBe("2026-12-09"); // 10:00 → Wednesday
    expect(earliestDeliveryDay(schedule(), utc("2026-12-07T21:59:00"))).toBe("2026-12-09"); // 13:59 → Wednesday
    expect(earliestDeliveryDay(schedule(), utc("2026-12-07T22:00:00"))).toBe("2026-12-10"); // 14:00 → Thursday
  });

  it("on a Friday afternoon counts over the weekend: Monday and Tuesday", () => {
    expect(earliestDeliveryDay(schedule(), utc("2026-12-11T23:00:00"))).toBe("2026-12-15"); // Friday 15:00
    expect(earliestDeliveryDay(schedule(), utc("2026-12-11T18:00:00"))).toBe("2026-12-15"); // Friday 10:00: Monday is the 1st, Tuesday the 2nd
    expect(earliestDeliveryDay(schedule(), utc("2026-12-10T18:00:00"))).toBe("2026-12-14"); // Thursday 10:00: Friday, Monday
  });

  it("does not count a closed date", () => {
    const closed = schedule({ closedDates: ["2026-12-08"] });
    expect(earliestDeliveryDay(closed, utc("2026-12-07T18:00:00"))).toBe("2026-12-10");
  });

  it("with no lead, is today before the cutoff, else the next delivery day", () => {
    const sameDay = schedule({ leadDays: 0, cutoff: "11:00" });
    expect(earliestDeliveryDay(sameDay, utc("2026-12-07T18:00:00"))).toBe("2026-12-07"); // 10:00
    expect(earliestDeliveryDay(sameDay, utc("2026-12-07T19:00:00"))).toBe("2026-12-08"); // 11:00
    expect(earliestDeliveryDay(sameDay, utc("2026-12-12T18:00:00"))).toBe("2026-12-14"); // a Saturday: Monday
  });

  it("reads the cutoff on the clock of the day, across the change to daylight time (Sunday, March 14 2027)", () => {
    // Saturday 13:30 PST: before the cutoff.
    expect(earliestDeliveryDay(schedule(), utc("2027-03-13T21:30:00"))).toBe("2027-03-16");
    // Monday 21:30 UTC is 14:30 PDT: after the cutoff (on the winter's clock it would be 13:30, before it).
    expect(earliestDeliveryDay(schedule(), utc("2027-03-15T21:30:00"))).toBe("2027-03-18");
    expect(earliestDeliveryDay(schedule(), utc("2027-03-15T20:30:00"))).toBe("2027-03-17");
  });

  it("reads the cutoff on the clock of the day, across the change back to standard time (Sunday, November 1 2026)", () => {
    // Friday 21:30 UTC is 14:30 PDT: after the cutoff, so placed Saturday: Monday and Tuesday.
    expect(earliestDeliveryDay(schedule(), utc("2026-10-30T21:30:00"))).toBe("2026-11-03");
    // Monday 21:30 UTC is 13:30 PST: before the cutoff (on the summer's clock it would be 14:30, after it).
    expect(earliestDeliveryDay(schedule(), utc("2026-11-02T21:30:00"))).toBe("2026-11-04");
    // Saturday night 07:30 UTC on November 1 is still Saturday, 00:30 PDT.
    expect(earliestDeliveryDay(schedule(), utc("2026-11-01T07:30:00"))).toBe("2026-11-03");
  });

  it("is none for a schedule whose every day is closed for a year", () => {
    const days = Array.from({ length: 400 }, (_, index) => addDays("2026-12-07", index));
    expect(earliestDeliveryDay(schedule({ closedDates: days }), utc("2026-12-07T18:00:00"))).toBeNull();
  });
});

describe("the dates on offer", () => {
  const monday10am = utc("2026-12-07T18:00:00");

  it("lists every day from the earliest to the window's end, each unavailable one with its reason", () => {
    const dates = datesOnOffer(schedule({ closedDates: ["2026-12-16"] }), "standard", monday10am);
    expect(dates[0]).toEqual({ date: "2026-12-09", label: "Wednesday, December 9", available: true, slots: [] });
    expect(dates.at(-1)?.date).toBe("2026-12-21"); // 14 days after today
    expect(dates).toHaveLength(13);
    expect(dates.find((date) => date.date === "2026-12-12")).toMatchObject({ available: false, reason: "closed" }); // Saturday
    expect(dates.find((date) => date.date === "2026-12-16")).toMatchObject({ available: false, reason: "closed" }); // a holiday
    expect(available(dates)).toEqual(["2026-12-09", "2026-12-10", "2026-12-11", "2026-12-14", "2026-12-15", "2026-12-17", "2026-12-18", "2026-12-21"]);
  });

  it("offers a zone served on Saturdays only its Saturdays, from the earliest day on", () => {
    const saturdays = schedule({ zoneDays: { premium: ["sat"] } });
    const premium = datesOnOffer(saturdays, "premium", monday10am);
    expect(available(premium)).toEqual(["2026-12-12", "2026-12-19"]);
    expect(premium.find((date) => date.date === "2026-12-09")).toMatchObject({ available: false, reason: "not served in your zone" });
    expect(premium.find((date) => date.date === "2026-12-13")).toMatchObject({ available: false, reason: "closed" }); // Sunday: no zone's
    // Saturdays are the premium zone's only: another zone's Saturday is not served in its zone, its weekdays are.
    const standard = datesOnOffer(saturdays, "standard", monday10am);
    expect(standard.find((date) => date.date === "2026-12-12")).toMatchObject({ available: false, reason: "closed" });
    expect(available(standard)[0]).toBe("2026-12-09");
  });

  it("says a day is full when its orders reach the day's room, or when none of its windows has room", () => {
    const slots = [
      { id: "morning", label: "9am–12pm", start: "09:00", end: "12:00", capacity: 2 },
      { id: "afternoon", label: "1pm–5pm", start: "13:00", end: "17:00", capacity: null },
    ];
    const taken = new Map<string, DayTaken>([
      ["2026-12-09", { total: 5, bySlot: { morning: 2, afternoon: 3 } }],
      ["2026-12-10", { total: 2, bySlot: { morning: 2 } }],
    ]);
    const dates = datesOnOffer(schedule({ capacityPerDay: 5, slots }), "standard", monday10am, taken);
    expect(dates[0]).toMatchObject({
      date: "2026-12-09",
      available: false,
      reason: "full",
      slots: [
        { id: "morning", available: false },
        { id: "afternoon", available: false },
      ],
    });
    expect(dates[1]).toMatchObject({
      date: "2026-12-10",
      available: true,
      slots: [
        { id: "morning", label: "9am–12pm", available: false },
        { id: "afternoon", label: "1pm–5pm", available: true },
      ],
    });
    const onlyMornings = datesOnOffer(schedule({ slots: [slots[0]!] }), "standard", monday10am, taken);
    expect(onlyMornings[1]).toMatchObject({ date: "2026-12-10", available: false, reason: "full" });
  });
});

describe("choosing a day", () => {
  const monday10am = utc("2026-12-07T18:00:00");
  const slots = [
    { id: "morning", label: "9am–12pm", start: "09:00", end: "12:00", capacity: 1 },
    { id: "evening", label: "5pm–8pm", start: "17:00", end: "20:00", capacity: null },
  ];

  it("takes the earliest available day (and its first window with room) when none is named", () => {
    const taken = new Map<string, DayTaken>([["2026-12-09", { total: 1, bySlot: { morning: 1 } }]]);
    const offered = datesOnOffer(schedule({ slots }), "standard", monday10am, taken);
    expect(pickDelivery(offered, {})).toEqual({ date: "2026-12-09", slot: "evening" });
    expect(everyChoice(offered).slice(0, 3)).toEqual([
      { date: "2026-12-09", slot: "evening" },
      { date: "2026-12-10", slot: "morning" },
      { date: "2026-12-10", slot: "evening" },
    ]);
  });

  it("takes a named day and window only if they are on offer with room", () => {
    const taken = new Map<string, DayTaken>([["2026-12-09", { total: 1, bySlot: { morning: 1 } }]]);
    const offered = datesOnOffer(schedule({ slots }), "standard", monday10am, taken);
    expect(pickDelivery(offered, { date: "2026-12-10", slot: "morning" })).toEqual({ date: "2026-12-10", slot: "morning" });
    expect(pickDelivery(offered, { date: "2026-12-10" })).toEqual({ date: "2026-12-10", slot: "morning" });
    expect(pickDelivery(offered, { date: "2026-12-09", slot: "morning" })).toBeNull(); // full
    expect(pickDelivery(offered, { date: "2026-12-12" })).toBeNull(); // a Saturday
    expect(pickDelivery(offered, { date: "2026-12-08" })).toBeNull(); // before the earliest
    expect(pickDelivery(offered, { date: "2026-12-10", slot: "midnight" })).toBeNull();
    // Without windows, a window named is refused.
    expect(pickDelivery(datesOnOffer(schedule(), "standard", monday10am), { date: "2026-12-10", slot: "morning" })).toBeNull();
  });
});

describe("the words", () => {
  it("say a day and its window as the pages and emails do", () => {
    expect(deliveryDayLabel("2026-12-03")).toBe("Thursday, December 3");
    expect(deliveryWhen("2026-12-03", "9am–12pm")).toBe("Thursday, December 3, 9am–12pm");
    expect(deliveryWhen("2026-12-03", null)).toBe("Thursday, December 3");
  });

  it("state the schedule the owner set", () => {
    expect(scheduleSentence(DEFAULT_DELIVERY_SCHEDULE)).toBe("Choose your delivery day at checkout: Monday to Friday, order by 2pm for delivery in 2 days");
    expect(scheduleSentence({ days: ["tue", "thu", "sat"], cutoff: "09:30", leadDays: 1 })).toBe(
      "Choose your delivery day at checkout: Tuesday, Thursday and Saturday, order by 9:30am for delivery in 1 day",
    );
  });

  it("title the delivery tile with the requirements' promise while the schedule keeps it, else with the days delivered", () => {
    expect(scheduleTitle(DEFAULT_DELIVERY_SCHEDULE)).toBe("2-3 business days");
    expect(scheduleTitle({ ...DEFAULT_DELIVERY_SCHEDULE, days: ["mon", "tue", "wed", "thu", "fri", "sat"] })).toBe("Delivered Monday to Saturday");
    expect(scheduleTitle({ ...DEFAULT_DELIVERY_SCHEDULE, leadDays: 1 })).toBe("Delivered Monday to Friday");
  });
});
