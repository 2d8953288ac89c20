import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_DELIVERY_SCHEDULE, deliveryDayLabel, type DeliverySchedule, type OfferedDate } from "~/lib/delivery-schedule";
import { DEFAULT_SETTINGS } from "~/lib/shop-settings";
import { changeCatalog } from "~/models/catalog.server";
import { datesOnOffer } from "~/models/delivery-days.server";
import { closeOrderPayment, findPaidOrder } from "~/models/orders.server";
import { saveSettings } from "~/models/settings.server";
import { db } from "~/utils/db.server";
import { stripeMock } from "../../mocks/stripe";
import { callFunction, checkoutBody, payOrder, readJson, type CheckoutJson, type ErrorJson } from "../utils";

/**
 * Delivery days (issue 39, decision 100): the days get-delivery-dates offers,
 * the day simple-checkout takes and refuses, and a day's room held by the
 * orders waiting on their payment page and the paid ones, the way stock is.
 */

type DatesJson = { zone: string; dates: OfferedDate[] };
type PlacedJson = CheckoutJson & { deliveryDate: string; deliverySlot: string | null };
type RefusedJson = ErrorJson & { dates?: OfferedDate[] };

afterEach(async () => {
  // Back to the requirements' schedule, through the catalogue's version so every cache forgets the test's.
  await changeCatalog((tx) => tx.shopSettings.deleteMany());
});

async function useSchedule(change: Partial<DeliverySchedule>) {
  await saveSettings("owner@chillpb.test", { ...DEFAULT_SETTINGS, delivery: { ...DEFAULT_DELIVERY_SCHEDULE, ...change } });
}

/** The days on offer now for the standard zone with nothing taken: what the shop should offer, computed by the rules alone. */
const expectedDays = (schedule: DeliverySchedule = DEFAULT_DELIVERY_SCHEDULE) =>
  datesOnOffer(schedule, "standard", new Date())
    .filter((date) => date.available)
    .map((date) => date.date);

function checkout(day: { deliveryDate?: string; deliverySlot?: string } = {}) {
  return callFunction("simple-checkout", { ...checkoutBody([["bites-variety", 3]]), ...day });
}

const ordersOn = (date: string) => db.order.count({ where: { deliveryDate: new Date(`${date}T00:00:00Z`) } });

describe("get-delivery-dates", () => {
  it("offers the schedule's days for the address's zone, from the earliest on, each unavailable one with why", async () => {
    const response = await callFunction("get-delivery-dates", { zipCode: "90025", address: "11600 Wilshire Blvd", city: "Los Angeles", state: "CA" });
    expect(response.status).toBe(200);
    const answer = await readJson<DatesJson>(response);
    expect(answer.zone).toBe("standard");
    expect(answer.dates.filter((date) => date.available).map((date) => date.date)).toEqual(expectedDays());
    for (const date of answer.dates) {
      expect(date.label).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2}$/);
      if (!date.available) expect(date.reason).toBe("closed"); // the weekends
    }
  });

  it("takes a ZIP code alone, and answers an address outside the area as the delivery check does", async () => {
    expect((await readJson<DatesJson>(await callFunction("get-delivery-dates", { zipCode: "90025" }))).zone).toBe("standard");
    const outside = await callFunction("get-delivery-dates", { zipCode: "94103" }); // San Francisco
    expect(outside.status).toBe(400);
    expect(await readJson<RefusedJson>(outside)).toMatchObject({ title: "Outside Delivery Area", delivery: { isWithinRange: false } });
    const bad = await callFunction("get-delivery-dates", { zipCode: "LA" });
    expect(bad.status).toBe(400);
  });

  it("says which days a zone is not served on, and which are full", async () => {
    const [first, second] = expectedDays();
    await useSchedule({ zoneDays: { standard: ["sat"] } });
    const saturdays = await readJson<DatesJson>(await callFunction("get-delivery-dates", { zipCode: "90025" }));
    expect(saturdays.dates.find((date) => date.date === first)).toMatchObject({ available: false, reason: "not served in your zone" });
    expect(saturdays.dates.filter((date) => date.available).every((date) => date.label.startsWith("Saturday"))).toBe(true);

    await useSchedule({ capacityPerDay: 1 });
    expect((await checkout({ deliveryDate: first! })).status).toBe(200);
    const full = await readJson<DatesJson>(await callFunction("get-delivery-dates", { zipCode: "90025" }));
    expect(full.dates.find((date) => date.date === first)).toMatchObject({ available: false, reason: "full" });
    expect(full.dates.find((date) => date.date === second)).toMatchObject({ available: true });
  });
});

describe("simple-checkout's delivery day", () => {
  it("takes the day asked for, keeps it on the order and tells Stripe; without one, the earliest", async () => {
    const [earliest, later] = expectedDays();
    const chosen = await checkout({ deliveryDate: later! });
    expect(chosen.status).toBe(200);
    const placed = await readJson<PlacedJson>(chosen);
    expect(placed).toMatchObject({ deliveryDate: later, deliverySlot: null });
    const order = await db.order.findUniqueOrThrow({ where: { id: placed.orderId } });
    expect(order.deliveryDate?.toISOString().slice(0, 10)).toBe(later);
    const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === placed.orderId);
    expect(session?.metadata.delivery).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday), [A-Z][a-z]+ \d{1,2}$/);

    expect(await readJson<PlacedJson>(await checkout())).toMatchObject({ deliveryDate: earliest, deliverySlot: null });
  });

  it("refuses a day that is not on offer with 409 and the days that are, and writes nothing", async () => {
    const before = await db.order.count();
    const saturday = datesOnOffer(DEFAULT_DELIVERY_SCHEDULE, "standard", new Date()).find((date) => date.reason === "closed")!.date;
    for (const day of [{ deliveryDate: saturday }, { deliveryDate: "2020-01-06" }, { deliveryDate: expectedDays()[0]!, deliverySlot: "morning" }]) {
      const refused = await checkout(day);
      expect(refused.status, JSON.stringify(day)).toBe(409);
      const answer = await readJson<RefusedJson>(refused);
      expect(answer.error).toBe("That delivery day is no longer available. Please choose another day.");
      expect(answer.dates?.filter((date) => date.available).map((date) => date.date)).toEqual(expectedDays());
    }
    expect((await checkout({ deliveryDate: "next tuesday" })).status).toBe(400);
    expect(await db.order.count()).toBe(before);
  });

  it("takes a window of the day, and refuses a full one", async () => {
    const slots = [
      { id: "morning", label: "9am–12pm", start: "09:00", end: "12:00", capacity: 1 },
      { id: "evening", label: "5pm–8pm", start: "17:00", end: "20:00", capacity: null },
    ];
    await useSchedule({ slots });
    const day = expectedDays()[2]!;
    const morning = await readJson<PlacedJson>(await checkout({ deliveryDate: day, deliverySlot: "morning" }));
    expect(morning).toMatchObject({ deliveryDate: day, deliverySlot: "morning" });
    expect(await db.order.findUniqueOrThrow({ where: { id: morning.orderId } })).toMatchObject({ deliverySlot: "morning", deliverySlotLabel: "9am–12pm" });
    const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === morning.orderId);
    expect(session?.metadata.delivery).toMatch(/, 9am–12pm$/);
    expect((await checkout({ deliveryDate: day, deliverySlot: "morning" })).status).toBe(409);
    // Paid: the confirmation and the kitchen's email both state the day and its window.
    await payOrder(session!.id);
    const words = `${deliveryDayLabel(day)}, 9am–12pm`;
    const emails = await db.outboxMessage.findMany({ where: { orderId: morning.orderId }, select: { kind: true, text: true, html: true } });
    expect(emails.map((email) => email.kind).sort()).toEqual(["order-confirmation", "order-fulfilment"]);
    for (const email of emails) {
      expect(email.text, email.kind).toContain(`Delivery: ${words}`);
      expect(email.html, email.kind).toContain(`Delivery: ${words}`);
    }
    expect((await findPaidOrder(morning.orderId))?.delivery).toBe(words);
    // The day without a window named: its first window with room.
    expect(await readJson<PlacedJson>(await checkout({ deliveryDate: day }))).toMatchObject({ deliveryDate: day, deliverySlot: "evening" });
  });
});

describe("a day's room, held like stock", () => {
  // Each test counts a day's places from none: this file's database is its own.
  beforeEach(async () => {
    await db.order.deleteMany();
  });

  it("30 checkouts at once for a day with room for 5: exactly 5 get it, the others 409 with the days on offer, none a 5xx", async () => {
    await useSchedule({ capacityPerDay: 5 });
    const day = expectedDays()[1]!;
    const answers = await Promise.all(Array.from({ length: 30 }, () => checkout({ deliveryDate: day })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(25);
    expect(await ordersOn(day)).toBe(5);
    const refused = await readJson<RefusedJson>(answers[statuses.indexOf(409)]!);
    expect(refused.dates?.find((date) => date.date === day)).toMatchObject({ available: false, reason: "full" });
  });

  it("without a day asked for, checkouts beyond a day's room get the next day with room", async () => {
    const [first, second] = expectedDays();
    await useSchedule({ capacityPerDay: 3 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => checkout()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const days = await Promise.all(answers.map(async (answer) => (await readJson<PlacedJson>(answer)).deliveryDate));
    expect(await ordersOn(first!)).toBe(3);
    expect(await ordersOn(second!)).toBe(3);
    expect(days.filter((date) => date !== first && date !== second).length).toBeGreaterThan(0);
  });

  it("a given-up checkout gives its place back; a paid order keeps it", async () => {
    const day = expectedDays()[4]!;
    await useSchedule({ capacityPerDay: 1 });
    const first = await readJson<PlacedJson>(await checkout({ deliveryDate: day }));
    expect((await checkout({ deliveryDate: day })).status).toBe(409);
    await closeOrderPayment(first.orderId, "cancelled");
    const second = await readJson<PlacedJson>(await checkout({ deliveryDate: day }));
    expect(second.deliveryDate).toBe(day);
    const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === second.orderId)!;
    await payOrder(session.id);
    expect((await checkout({ deliveryDate: day })).status).toBe(409);
  });
});
