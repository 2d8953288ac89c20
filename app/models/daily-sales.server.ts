import type { Prisma } from "~/generated/prisma/client";
import type { PaymentStatus } from "~/lib/orders";
import { db } from "~/utils/db.server";

/**
 * Paid orders and revenue per Los Angeles calendar day, kept as payments
 * change (docs/decisions/018): every change of an order's payment status goes
 * through `recordPaymentChange` in the same transaction, so the dashboard
 * reads one row a day instead of summing every order of the month. An order
 * counts on the day it was placed, as the dashboard has always shown it.
 */

// One formatter for every date: building one per call costs ~60 µs, which a
// month of orders turned into half a second.
const losAngelesDate = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The Los Angeles calendar day of an instant, as YYYY-MM-DD. */
function losAngelesDay(instant: Date): string {
  const parts: Record<string, string> = {};
  for (const { type, value } of losAngelesDate.formatToParts(instant)) parts[type] = value;
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The `count` Los Angeles calendar days ending with `now`'s, oldest first.
 * Whole calendar days, not 24-hour steps, which would repeat or skip a day
 * when the clocks change.
 */
export function losAngelesDaysEnding(now: Date, count: number): string[] {
  const [year, month, date] = losAngelesDay(now).split("-").map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(year, month - 1, date - (count - 1 - index))).toISOString().slice(0, 10),
  );
}

type PaidOrder = { createdAt: Date; totalCents: number };

/**
 * Follows one order's payment status from `from` to `to`: it joins its day
 * when it becomes paid and leaves it when it stops being paid (a refund, a
 * cancellation); any other change moves nothing. Call it inside the
 * transaction that changes the status.
 */
export async function recordPaymentChange(tx: Prisma.TransactionClient, order: PaidOrder, from: PaymentStatus, to: PaymentStatus) {
  const orders = Number(to === "paid") - Number(from === "paid");
  if (orders === 0) return;
  const day = losAngelesDay(order.createdAt);
  const revenueCents = orders * order.totalCents;
  // One statement (INSERT … ON CONFLICT on both databases): two payments of a
  // new day cannot both try to create its row.
  await tx.dailySales.upsert({
    where: { day },
    create: { day, orders, revenueCents },
    update: { orders: { increment: orders }, revenueCents: { increment: revenueCents } },
  });
}

/** Paid orders and revenue of each of `days` (YYYY-MM-DD, in order); 0 for a day without. */
export async function dailySales(days: string[]) {
  const rows = await db.dailySales.findMany({ where: { day: { gte: days[0], lte: days.at(-1) } } });
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return days.map((day) => ({ day, orders: byDay.get(day)?.orders ?? 0, revenueCents: byDay.get(day)?.revenueCents ?? 0 }));
}

/** How many orders are paid: the sum of every day's, which reads a row a day instead of an index entry an order. */
export async function paidOrderCount() {
  const { _sum } = await db.dailySales.aggregate({ _sum: { orders: true } });
  return _sum.orders ?? 0;
}
