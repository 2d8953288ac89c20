import { describe, expect, it } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { dashboardStats } from "~/models/admin-orders.server";
import { recordPaymentChange } from "~/models/daily-sales.server";
import { closeOrderPayment } from "~/models/orders.server";
import { db, sqlIn } from "~/utils/db.server";
import { callFunction, deliverStripeEvent, placeOrder, readJson, stripeSessionEvent, type VerifyJson } from "../utils";

/**
 * The dashboard's paid orders per Los Angeles day are kept as payments change
 * (docs/decisions/018), not summed from the orders on every load: these tests
 * pay, expire, cancel and un-pay orders through the shop's own paths and read
 * the dashboard. Each test places its orders on days of its own in the past
 * (other tests' orders are placed today), so the counts it reads are its own.
 */

type Stats = Awaited<ReturnType<typeof dashboardStats>>;

const dayOf = (stats: Stats, date: string) => stats.last30Days.find((day) => day.date === date)!;

/** An order placed at `placedAt` (its payment page left open until now), not yet paid. */
async function placedAt(placedAt: Date) {
  const placed = await placeOrder();
  const order = await db.order.update({ where: { id: placed.orderId }, data: { createdAt: placedAt }, select: { totalCents: true } });
  return { ...placed, totalCents: order.totalCents };
}

/** Pays on the Stripe stand-in; Stripe's webhook and the success page's verify-payment both report it, twice each. */
async function pay(sessionId: string) {
  const session = await stripeMock.pay(sessionId);
  if (!session) throw new Error(`The Stripe stand-in could not pay session ${sessionId}`);
  const event = stripeSessionEvent("checkout.session.completed", session);
  const responses = await Promise.all([
    deliverStripeEvent(event),
    callFunction("verify-payment", { sessionId }),
    deliverStripeEvent(event),
    callFunction("verify-payment", { sessionId }),
  ]);
  expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  expect(await readJson<VerifyJson>(responses[1]!)).toMatchObject({ verified: true });
}

describe("paid orders per day", () => {
  it("an order joins the day it was placed once, with its total, however often its payment is reported", async () => {
    const placed = await placedAt(new Date("2024-02-10T20:00:00Z"));
    const now = new Date("2024-02-20T20:00:00Z");
    expect(dayOf(await dashboardStats(now), "2024-02-10")).toEqual({ date: "2024-02-10", orders: 0, revenue: 0, revenueCents: 0 });

    await pay(placed.sessionId);
    const second = await placedAt(new Date("2024-02-10T21:00:00Z"));
    await pay(second.sessionId);

    const stats = await dashboardStats(now);
    expect(dayOf(stats, "2024-02-10")).toEqual({
      date: "2024-02-10",
      orders: 2,
      revenue: expect.closeTo((placed.totalCents + second.totalCents) / 100, 2),
      revenueCents: placed.totalCents + second.totalCents,
    });
    // The period's revenue is added up by the server, in cents.
    expect(stats.last30DaysRevenueCents).toBe(placed.totalCents + second.totalCents);
    expect(stats.last30Days.filter((day) => day.orders > 0).map((day) => day.date)).toEqual(["2024-02-10"]);
  });

  it("an unpaid, expired or cancelled checkout counts for nothing; one paid after it expired counts once", async () => {
    const now = new Date("2024-02-14T23:00:00Z");
    await placedAt(new Date("2024-02-12T20:00:00Z")); // left unpaid
    const expired = await placedAt(new Date("2024-02-12T20:10:00Z"));
    const timedOut = await stripeMock.timeOut(expired.sessionId);
    if (!timedOut) throw new Error("The Stripe stand-in could not expire the session");
    expect((await deliverStripeEvent(stripeSessionEvent("checkout.session.expired", timedOut))).status).toBe(200);
    const cancelled = await placedAt(new Date("2024-02-12T20:20:00Z"));
    expect(await closeOrderPayment(cancelled.orderId, "cancelled")).toEqual({ ok: true });

    expect(dayOf(await dashboardStats(now), "2024-02-12").orders).toBe(0);

    // Money taken after the page expired is honoured: the order is paid, and counted, once.
    const paidLate = { ...timedOut, status: "complete" as const, payment_status: "paid" as const };
    for (let delivery = 0; delivery < 2; delivery++) {
      expect((await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", paidLate))).status).toBe(200);
    }
    expect((await db.order.findUniqueOrThrow({ where: { id: expired.orderId } })).paymentStatus).toBe("paid");
    expect(dayOf(await dashboardStats(now), "2024-02-12")).toEqual({
      date: "2024-02-12",
      orders: 1,
      revenue: expect.closeTo(expired.totalCents / 100, 2),
      revenueCents: expired.totalCents,
    });
  });

  it("an order that stops being paid (a refund) leaves its day, in the same transaction", async () => {
    const now = new Date("2024-02-16T23:00:00Z");
    const kept = await placedAt(new Date("2024-02-16T18:00:00Z"));
    const refunded = await placedAt(new Date("2024-02-16T19:00:00Z"));
    await pay(kept.sessionId);
    await pay(refunded.sessionId);
    expect(dayOf(await dashboardStats(now), "2024-02-16").orders).toBe(2);

    // What a refund does to the order's payment, through the one function every payment change calls.
    const refund = () =>
      db.$transaction(async (tx) => {
        const order = await tx.order.update({ where: { id: refunded.orderId }, data: { paymentStatus: "cancelled" } });
        await recordPaymentChange(sqlIn(tx), order, "paid", "cancelled");
        return order;
      });
    await refund();
    expect(dayOf(await dashboardStats(now), "2024-02-16")).toEqual({
      date: "2024-02-16",
      orders: 1,
      revenue: expect.closeTo(kept.totalCents / 100, 2),
      revenueCents: kept.totalCents,
    });

    // A change that fails takes its daily totals with it.
    await expect(
      db.$transaction(async (tx) => {
        const order = await tx.order.update({ where: { id: kept.orderId }, data: { paymentStatus: "cancelled" } });
        await recordPaymentChange(sqlIn(tx), order, "paid", "cancelled");
        throw new Error("the refund failed at the bank");
      }),
    ).rejects.toThrow("the refund failed at the bank");
    expect(dayOf(await dashboardStats(now), "2024-02-16").orders).toBe(1);
  });

  it("counts each order on its Los Angeles day, around midnight and when the clocks change", async () => {
    // Instant (UTC) → the Los Angeles day it falls on.
    const autumn: [string, string][] = [
      ["2025-11-02T06:59:59.999Z", "2025-11-01"], // 23:59:59.999 PDT
      ["2025-11-02T07:00:00.000Z", "2025-11-02"], // midnight PDT, the day the clocks go back
      ["2025-11-02T09:30:00.000Z", "2025-11-02"], // 01:30 PST, the hour that happens twice
      ["2025-11-03T07:59:59.999Z", "2025-11-02"], // 23:59:59.999 PST
      ["2025-11-03T08:00:00.000Z", "2025-11-03"], // midnight PST
    ];
    const spring: [string, string][] = [
      ["2025-03-09T07:59:59.999Z", "2025-03-08"], // 23:59:59.999 PST
      ["2025-03-09T08:00:00.000Z", "2025-03-09"], // midnight PST, the day the clocks go forward
      ["2025-03-09T10:00:00.000Z", "2025-03-09"], // 03:00 PDT, just after the skipped hour
      ["2025-03-10T06:59:59.999Z", "2025-03-09"], // 23:59:59.999 PDT
      ["2025-03-10T07:00:00.000Z", "2025-03-10"], // midnight PDT
    ];
    for (const [instant] of [...autumn, ...spring]) await pay((await placedAt(new Date(instant))).sessionId);

    for (const [cases, now] of [
      [autumn, "2025-11-04T20:00:00Z"],
      [spring, "2025-03-11T20:00:00Z"],
    ] as const) {
      const expected = new Map<string, number>();
      for (const [, day] of cases) expected.set(day, (expected.get(day) ?? 0) + 1);
      const counted = (await dashboardStats(new Date(now))).last30Days.filter((day) => day.orders > 0);
      expect(Object.fromEntries(counted.map((day) => [day.date, day.orders]))).toEqual(Object.fromEntries(expected));
    }
  });

  it("rebuilding the daily totals from the paid orders (after a bulk import) finds exactly the totals the shop keeps", async () => {
    // Every order this file paid, around clock changes too, went through the shop's own payment paths.
    const kept = await db.dailySales.findMany({ orderBy: { day: "asc" } });
    expect(kept.length).toBeGreaterThanOrEqual(9);
    await db.$executeRaw`SELECT rebuild_daily_sales()`;
    expect(await db.dailySales.findMany({ orderBy: { day: "asc" } })).toEqual(kept);
  });
});
