import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { vacuumStaleTables } from "../../server/migrate.mjs";
import { db } from "~/utils/db.server";
import type { MaskedOrder } from "~/lib/orders";
import { callFunction, readJson, signedInAdmin, type ErrorJson } from "../utils";

/**
 * Orders beyond what pages and counts reach (issue 21 item 5, decision 067):
 * a count stops at 10,000 and says so; pages go 10,000 orders deep; `from`
 * starts the list at any moment, so the oldest order is one call away.
 */

type OrdersJson = { orders: MaskedOrder[]; total: number; totalCapped: boolean };

const DOMAIN = `depth-${randomUUID().slice(0, 8)}.example`;
const MANY = 10_050;
/** The first order of the many, a year before the rest began. */
const OLDEST = new Date("2025-01-15T18:00:00.000Z");

let owner: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("depth", "staff");
  // This file's copy of the database only: autovacuum would analyze the import before the start-up's check can see it.
  await db.$executeRawUnsafe(`ALTER TABLE "Order" SET (autovacuum_enabled = false)`);
  // 10,050 paid orders of one domain, an hour apart, written in one statement as a bulk import would.
  await db.$executeRawUnsafe(`
    INSERT INTO "Order" ("id", "status", "paymentStatus", "email", "mailbox", "emailDomain", "firstName", "lastName", "address", "city", "state", "zipCode",
                         "subtotalCents", "discountCents", "shippingCents", "totalCents", "deliveryZone", "distanceTenths", "createdAt", "updatedAt")
    SELECT gen_random_uuid()::text, 'delivered', 'paid', 'c' || n || '@${DOMAIN}', 'c' || n || '@${DOMAIN}', '${DOMAIN}', 'Depth', 'Tester', '1 Main St', 'Los Angeles', 'CA', '90012',
           3000, 0, 0, 3000, 'Local', 50, timestamp '${OLDEST.toISOString().replace("T", " ").replace("Z", "")}' + n * interval '1 hour', now()
      FROM generate_series(0, ${MANY - 1}) AS n`);
});

const list = (body: Record<string, unknown>) => callFunction("get-orders", body, { cookie: owner.cookie });
const ordersJson = async (body: Record<string, unknown>) => {
  const response = await list(body);
  expect(response.status).toBe(200);
  return readJson<OrdersJson>(response);
};

describe("get-orders beyond 10,000 orders", () => {
  it("counts up to 10,000 and says the count stops there", async () => {
    expect(await ordersJson({ q: DOMAIN, pageSize: 1 })).toMatchObject({ total: 10_000, totalCapped: true });
    expect(await ordersJson({ q: DOMAIN, status: "delivered", pageSize: 1 })).toMatchObject({ total: 10_000, totalCapped: true });
    // Under the cap the count is exact.
    expect(await ordersJson({ q: DOMAIN, from: new Date(OLDEST.getTime() + 99 * 3_600_000).toISOString(), pageSize: 1 })).toMatchObject({
      total: 100,
      totalCapped: false,
    });
  });

  it("a name search with more matches than that: counted to 10,000, its page read newest first", async () => {
    const named = await ordersJson({ q: "depth tester", pageSize: 2 });
    expect(named).toMatchObject({ total: 10_000, totalCapped: true });
    const newest = new Date(OLDEST.getTime() + (MANY - 1) * 3_600_000);
    expect(named.orders.map((order) => order.created_at)).toEqual([newest.toISOString(), new Date(newest.getTime() - 3_600_000).toISOString()]);
    // Fewer than that (from a moment): gathered, counted exactly, and sorted.
    const fewer = await ordersJson({ q: "depth tester", from: new Date(OLDEST.getTime() + 9 * 3_600_000).toISOString(), pageSize: 3 });
    expect(fewer.total).toBe(10);
    expect(fewer.orders.map((order) => order.created_at)).toEqual([9, 8, 7].map((hours) => new Date(OLDEST.getTime() + hours * 3_600_000).toISOString()));
  });

  it("goes 10,000 orders deep by page, and refuses deeper with how to go on", async () => {
    const last = await ordersJson({ q: DOMAIN, page: 100, pageSize: 100 });
    expect(last.orders).toHaveLength(100);
    const deeper = await list({ q: DOMAIN, page: 101, pageSize: 100 });
    expect(deeper.status).toBe(400);
    expect((await readJson<ErrorJson>(deeper)).error).toBe(
      "page: goes deeper than 10,000 orders: give `from` (a date and time) to start the list at older orders",
    );
  });

  it("reaches the oldest order with `from`, newest first from there or oldest first", async () => {
    const fromOldest = await ordersJson({ q: DOMAIN, from: OLDEST.toISOString() });
    expect(fromOldest.orders.map((order) => order.created_at)).toEqual([OLDEST.toISOString()]);
    const fiftyOne = new Date(OLDEST.getTime() + 50 * 3_600_000);
    const newestFirst = await ordersJson({ q: DOMAIN, from: fiftyOne.toISOString(), pageSize: 3 });
    expect(newestFirst.orders.map((order) => order.created_at)).toEqual([0, 1, 2].map((back) => new Date(fiftyOne.getTime() - back * 3_600_000).toISOString()));
    const oldestFirst = await ordersJson({ q: DOMAIN, from: fiftyOne.toISOString(), sort: "date_asc", pageSize: 2 });
    expect(oldestFirst.orders.map((order) => order.created_at)).toEqual([fiftyOne.toISOString(), new Date(fiftyOne.getTime() + 3_600_000).toISOString()]);
    // Every paid order, from a moment: counted, not read from the daily totals (which cover all of them).
    expect((await ordersJson({ from: OLDEST.toISOString(), pageSize: 1 })).total).toBeLessThan(10);
  });

  it("answers 400 to a `from` that is not a moment", async () => {
    const response = await list({ from: "last tuesday" });
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toBe("from: must be a date and time, e.g. 2026-11-01T00:00:00Z");
  });
});

describe("the start-up after a bulk import", () => {
  it("vacuums and analyzes the tables changed much since their statistics, once, leaving one autovacuum holds", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await Promise.all([client.connect(), other.connect()]);
    try {
      // The import's counts reach the statistics views when its connection reports them (within a second or so).
      const changed = async () =>
        Number((await client.query(`SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE relname = 'Order'`)).rows[0]?.n ?? 0);
      await expect.poll(changed, { timeout: 10_000 }).toBeGreaterThanOrEqual(MANY);
      const lastVacuum = async () =>
        (await client.query(`SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = 'Order'`)).rows[0]?.last_vacuum as Date | null;
      const before = await lastVacuum();

      // Autovacuum (here another session) holds the table: it is left to it, and the start-up goes on.
      await other.query(`BEGIN; LOCK TABLE "Order" IN SHARE UPDATE EXCLUSIVE MODE`);
      const busy = await vacuumStaleTables(client, { lockWaitMs: 200 });
      expect(busy).toContainEqual({ table: "Order", changed: expect.any(Number), vacuumed: false });
      await other.query("ROLLBACK");
      expect((await client.query("SHOW lock_timeout")).rows[0]?.lock_timeout).toBe("0");

      const done = await vacuumStaleTables(client);
      const order = done.find((entry) => entry.table === "Order");
      expect(order).toEqual({ table: "Order", changed: expect.any(Number), vacuumed: true });
      expect(order!.changed).toBeGreaterThanOrEqual(MANY);
      // VACUUM ran (it sets the visibility map the index-only reads need), and ANALYZE with it.
      await expect.poll(lastVacuum, { timeout: 10_000 }).not.toEqual(before);
      expect((await vacuumStaleTables(client)).map((entry) => entry.table)).not.toContain("Order");
    } finally {
      await other.query("ROLLBACK").catch(() => undefined);
      await Promise.all([client.end(), other.end()]);
    }
  });
});
