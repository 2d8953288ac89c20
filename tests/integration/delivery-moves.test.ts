import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_DELIVERY_SCHEDULE, deliveryDayLabel, type DeliverySchedule, type OfferedDate } from "~/lib/delivery-schedule";
import type { MaskedOrder, MaskedOrderWithHistory, Preparation } from "~/lib/orders";
import { DEFAULT_SETTINGS } from "~/lib/shop-settings";
import { changeCatalog } from "~/models/catalog.server";
import { customerMayChange } from "~/models/delivery-change.server";
import { datesOnOffer } from "~/models/delivery-days.server";
import { saveSettings } from "~/models/settings.server";
import { action as orderPageAction, loader as orderPageLoader } from "~/routes/orders.$id/route";
import { db } from "~/utils/db.server";
import { orderPagePath } from "~/utils/order-link.server";
import { callFunction, callRoute, formRequest, orderFor, readJson, shopRequest, signedInAdmin, type ErrorJson } from "../utils";

/**
 * An order's delivery day after it was placed (issue 39 items 5 and 6,
 * decision 100): the customer changes it from their order page among the days
 * on offer, an operator moves it to any day (told when the day is full), the
 * kitchen's lists read it, and each move is in the order's history with an
 * email to the customer.
 */

type MoveJson = { message: string; deliveryDate: string; deliverySlot: string | null; warnings: string[] };
type PageJson = { order: { delivery: string | null } | null; days: OfferedDate[] | null };

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await changeCatalog((tx) => tx.shopSettings.deleteMany());
});

async function useSchedule(change: Partial<DeliverySchedule>) {
  await saveSettings("owner@chillpb.test", { ...DEFAULT_SETTINGS, delivery: { ...DEFAULT_DELIVERY_SCHEDULE, ...change } });
}

/** The days with room for West LA now, with nothing taken. */
const openDays = () =>
  datesOnOffer(DEFAULT_DELIVERY_SCHEDULE, "standard", new Date())
    .filter((date) => date.available)
    .map((date) => date.date);

const dayOf = async (orderId: string) => (await db.order.findUniqueOrThrow({ where: { id: orderId } })).deliveryDate?.toISOString().slice(0, 10);

const emailsOf = (orderId: string) => db.outboxMessage.findMany({ where: { orderId, kind: "order-delivery-day" }, select: { text: true, to: true } });

describe("update-order-delivery (owner and staff)", () => {
  it("moves a paid order to another day, beyond a full day's room when asked, with its history and an email", async () => {
    const { orderId } = await orderFor();
    const [, second, third] = openDays();
    const { cookie } = await signedInAdmin("staff", "staff");
    const moved = await callFunction("update-order-delivery", { orderId, deliveryDate: third }, { cookie });
    expect(moved.status).toBe(200);
    expect(await readJson<MoveJson>(moved)).toEqual({
      message: `Delivery moved to ${deliveryDayLabel(third!)}; the customer is emailed.`,
      deliveryDate: third,
      deliverySlot: null,
      warnings: [],
    });
    expect(await dayOf(orderId)).toBe(third);
    const emails = await emailsOf(orderId);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.text).toContain(`We've moved your delivery to ${deliveryDayLabel(third!)}.`);

    // A day already full: moved all the same, and said.
    await useSchedule({ capacityPerDay: 1 });
    const other = await orderFor();
    await callFunction("update-order-delivery", { orderId: other.orderId, deliveryDate: second }, { cookie });
    const beyond = await readJson<MoveJson>(await callFunction("update-order-delivery", { orderId, deliveryDate: second }, { cookie }));
    expect(beyond.warnings).toEqual([`${deliveryDayLabel(second!)} is full`]);
    expect(beyond.message).toContain("Note: ");
    expect(await dayOf(orderId)).toBe(second);

    const { order } = await readJson<{ order: MaskedOrderWithHistory }>(await callFunction("get-order", { orderId }, { cookie }));
    expect(order.delivery_date).toBe(second);
    // Each move in its history, by the operator who made it, oldest first.
    expect(order.delivery_history.map((move) => [move.from, move.to])).toEqual([
      [deliveryDayLabel(openDays()[0]!), deliveryDayLabel(third!)],
      [deliveryDayLabel(third!), deliveryDayLabel(second!)],
    ]);
    expect(order.delivery_history.every((move) => move.changed_by.endsWith("@chillpb.test") || move.changed_by.includes("@"))).toBe(true);
  });

  it("lists and prepares a day's orders: get-orders' rows and filter, get-preparation for one day", async () => {
    const { cookie } = await signedInAdmin("owner", "owner");
    const { orderId } = await orderFor();
    const day = openDays()[5]!;
    await callFunction("update-order-delivery", { orderId, deliveryDate: day }, { cookie });
    const listed = await readJson<{ orders: MaskedOrder[] }>(await callFunction("get-orders", { deliveryDate: day }, { cookie }));
    expect(listed.orders.map((order) => [order.id, order.delivery_date])).toEqual([[orderId, day]]);
    const prepared = await readJson<Preparation>(await callFunction("get-preparation", { deliveryDate: day }, { cookie }));
    expect(prepared.delivery_date).toBe(day);
    const ids = prepared.zones.flatMap((zone) => zone.orders).filter((order) => order.delivery_date !== null);
    expect(ids.map((order) => [order.id, order.delivery_date])).toEqual([[orderId, day]]);
    expect(prepared.next_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Another day's list does not hold it.
    const otherDay = await readJson<Preparation>(await callFunction("get-preparation", { deliveryDate: openDays()[6] }, { cookie }));
    expect(otherDay.zones.flatMap((zone) => zone.orders).some((order) => order.id === orderId)).toBe(false);
  });

  it("refuses an order on its way, a day in the past, an unknown window and a bad day", async () => {
    const { cookie } = await signedInAdmin("owner", "owner");
    const { orderId } = await orderFor();
    const refused = async (body: object) => {
      const response = await callFunction("update-order-delivery", { orderId, ...body }, { cookie });
      return [response.status, (await readJson<ErrorJson>(response)).error];
    };
    expect(await refused({ deliveryDate: "2020-01-06" })).toEqual([409, "A delivery day cannot be in the past."]);
    expect(await refused({ deliveryDate: openDays()[2], deliverySlot: "midnight" })).toEqual([409, 'The shop has no delivery window "midnight".']);
    expect((await refused({ deliveryDate: "2026-02-30" }))[0]).toBe(400);
    // Text that is no date at all is a 400 too (the day check once threw on it: a 500).
    expect((await refused({ deliveryDate: "someday" }))[0]).toBe(400);
    await db.order.update({ where: { id: orderId }, data: { status: "shipped" } });
    expect(await refused({ deliveryDate: openDays()[2] })).toEqual([409, "This order is on its way or closed: its delivery day can no longer change."]);
    expect(await emailsOf(orderId)).toEqual([]);
  });
});

describe("the customer changes their day from their order page", () => {
  async function page(orderId: string) {
    return readJson<PageJson>(await callRoute(orderPageLoader, shopRequest(orderPagePath(orderId)), { params: { id: orderId } }));
  }
  function change(orderId: string, deliveryDay: string, path = orderPagePath(orderId)) {
    return callRoute(orderPageAction, formRequest(path, { deliveryDay }), { params: { id: orderId } });
  }

  it("shows the day and the days on offer, and changes it with a toast and an email", async () => {
    const { orderId } = await orderFor();
    const [first, second] = openDays();
    const before = await page(orderId);
    expect(before.order?.delivery).toBe(deliveryDayLabel(first!));
    expect(before.days?.filter((date) => date.available).map((date) => date.date)).toEqual(openDays());

    const changed = await change(orderId, second!);
    expect(changed.status).toBe(302);
    expect(changed.headers.get("Location")).toBe(orderPagePath(orderId));
    expect(changed.headers.get("Set-Cookie")).toContain("chillpb_toast=");
    expect(await dayOf(orderId)).toBe(second);
    expect((await emailsOf(orderId))[0]!.text).toContain(`Your delivery day is now ${deliveryDayLabel(second!)}.`);
    const trail = await db.auditEntry.findMany({ where: { subjectId: orderId, action: "order.delivery-day" } });
    expect(trail.map((entry) => entry.actorEmail)).toEqual(["customer"]);
  });

  it("refuses a day not on offer and a wrong token, and changes nothing", async () => {
    const { orderId } = await orderFor();
    const saturday = datesOnOffer(DEFAULT_DELIVERY_SCHEDULE, "standard", new Date()).find((date) => date.reason === "closed")!.date;
    const refused = await change(orderId, saturday);
    expect(refused.status).toBe(409);
    expect(await readJson<{ dayError: string }>(refused)).toEqual({ dayError: "That delivery day is no longer available. Please choose another day." });
    expect((await change(orderId, "someday")).status).toBe(400);
    expect((await change(orderId, openDays()[1]!, `/orders/${orderId}?token=forged`)).status).toBe(404);
    expect(await dayOf(orderId)).toBe(openDays()[0]);
    expect(await emailsOf(orderId)).toEqual([]);
  });

  it("may change it until the cutoff on the day before, Los Angeles time", () => {
    // The day is Thursday, December 10 2026; the cutoff 2pm.
    expect(customerMayChange("2026-12-10", "14:00", new Date("2026-12-09T21:59:00Z"))).toBe(true); // Wednesday 13:59 PST
    expect(customerMayChange("2026-12-10", "14:00", new Date("2026-12-09T22:00:00Z"))).toBe(false); // Wednesday 14:00
    expect(customerMayChange("2026-12-10", "14:00", new Date("2026-12-08T23:00:00Z"))).toBe(true); // Tuesday
    expect(customerMayChange("2026-12-10", "14:00", new Date("2026-12-10T18:00:00Z"))).toBe(false); // the day itself
  });
});
