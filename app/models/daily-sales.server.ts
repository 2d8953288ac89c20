import { sql } from "kysely";
import type { PaymentStatus } from "~/lib/orders";
import { at, db, sqlDb, type Sql } from "~/utils/db.server";

/**
 * Paid orders and revenue per Los Angeles calendar day, kept as payments
 * change (docs/decisions/018): every change of an order's payment status goes
 * through `recordPaymentChange` in the same transaction, so the dashboard
 * reads one row a day instead of summing every order of the month. An order
 * counts on the day it was placed, as the dashboard has always shown it. The
 * day itself is the database's `shop_day()` (migration 008), the one place
 * the rule is written.
 */

type PaidOrder = { createdAt: Date; totalCents: number };

/**
 * Follows one order's payment status from `from` to `to`: it joins its day
 * when it becomes paid and leaves it when it stops being paid (a refund, a
 * cancellation); any other change moves nothing. Call it inside the
 * transaction that changes the status.
 */
export async function recordPaymentChange(tx: Sql, order: PaidOrder, from: PaymentStatus, to: PaymentStatus) {
  const orders = Number(to === "paid") - Number(from === "paid");
  if (orders === 0) return;
  await addToDay(tx, order.createdAt, orders, orders * order.totalCents);
}

/**
 * A refund of part or the rest of a paid order (decision 066): its day's
 * revenue falls by what went back, and the order leaves its day's count when
 * the refund was the last of its total (`whole`), so that a day's revenue is
 * always what its orders kept.
 */
export async function recordRefundInSales(tx: Sql, order: { createdAt: Date }, amountCents: number, whole: boolean) {
  await addToDay(tx, order.createdAt, whole ? -1 : 0, -amountCents);
}

/** A day's row takes what is added to it: one statement, so two payments of a new day cannot both try to create its row. */
async function addToDay(tx: Sql, createdAt: Date, orders: number, revenueCents: number) {
  await tx.db
    .insertInto("DailySales")
    .values({ day: sql<string>`shop_day(${at(createdAt)}::timestamp)`, orders, revenueCents })
    .onConflict((conflict) =>
      conflict.column("day").doUpdateSet((eb) => ({
        orders: eb("DailySales.orders", "+", eb.ref("excluded.orders")),
        revenueCents: eb("DailySales.revenueCents", "+", eb.ref("excluded.revenueCents")),
      })),
    )
    .execute();
}

/**
 * Paid orders and revenue of each of the `count` Los Angeles calendar days
 * ending with `now`'s, oldest first; 0 for a day without. Whole calendar
 * days, not 24-hour steps, which would repeat or skip a day when the clocks change.
 */
export async function dailySales(now: Date, count: number) {
  // The days themselves, from shop_day(): "YYYY-MM-DD", as DailySales keys them.
  const days = sql<{ day: string }>`(
    SELECT to_char(d, 'YYYY-MM-DD') AS "day"
      FROM (SELECT shop_day(${at(now)}::timestamp)::date AS "today") AS t,
           generate_series(t."today" - ${count - 1}::int, t."today", interval '1 day') AS d
  )`;
  return sqlDb()
    .selectFrom(days.as("days"))
    .leftJoin("DailySales as s", "s.day", "days.day")
    .select((eb) => ["days.day", eb.fn.coalesce("s.orders", eb.lit(0)).as("orders"), eb.fn.coalesce("s.revenueCents", eb.lit(0)).as("revenueCents")])
    .orderBy("days.day")
    .execute();
}

/** How many orders are paid: the sum of every day's, which reads a row a day instead of an index entry an order. */
export async function paidOrderCount() {
  const { _sum } = await db.dailySales.aggregate({ _sum: { orders: true } });
  return _sum.orders ?? 0;
}
