import { describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/seed-demo";
import { DEFAULT_SETTINGS } from "~/lib/shop-settings";
import { deliveryForDistance, distanceMiles } from "~/models/delivery.server";
import { shopSettings } from "~/models/catalog.server";
import { zipCentroid } from "~/services/geocoder.server";
import { DEMO_OPERATORS } from "~/models/database-role.server";
import { db } from "~/utils/db.server";
import { login } from "../utils";

/**
 * The demo tells the truth (issue 38 item 4): each sample order stands where
 * its address puts it, in the zone and at the shipping the shop's own rules
 * give, and seeding again ends no session of an account it did not change.
 */
describe("the demo's sample orders", () => {
  it("place each order by its address on the shop's zones, and price it on that zone's terms", async () => {
    await seedDemo(db);
    const orders = await db.order.findMany({ where: { email: { endsWith: "@demo.chillpb.example" } }, include: { items: true } });
    expect(orders.length).toBeGreaterThan(30);
    const settings = await shopSettings({ maxAgeMs: 0 });
    for (const order of orders) {
      const check = deliveryForDistance(settings, distanceMiles(settings.kitchen, (await zipCentroid(order.zipCode))!));
      expect(check.ok).toBe(true);
      if (!check.ok) continue;
      expect({ zone: order.deliveryZone, miles: order.distanceTenths / 10 }).toEqual({ zone: check.zone, miles: check.miles });
      const zone = settings.zones.find((candidate) => candidate.name === check.zone)!;
      const fee = zone.shippingFeeCents ?? settings.shippingFeeCents;
      expect([0, fee]).toContain(order.shippingCents);
      // Below the zone's free-shipping threshold, its fee.
      if (order.subtotalCents < (zone.freeShippingThresholdCents ?? settings.freeShippingThresholdCents)) expect(order.shippingCents).toBe(fee);
    }
    // Manhattan Beach is about 11 miles from the kitchen: the extended zone, not 2.9 miles in the standard one.
    const manhattanBeach = orders.find((order) => order.city === "Manhattan Beach")!;
    expect(manhattanBeach.deliveryZone).toBe(DEFAULT_SETTINGS.zones[1]!.name);
    expect(manhattanBeach.distanceTenths / 10).toBeGreaterThan(10);
    expect(manhattanBeach.distanceTenths / 10).toBeLessThan(13);
  });

  it("keeps the demo operators' sessions when it runs again (a restart, a reload, a second instance)", async () => {
    await seedDemo(db);
    const [owner] = DEMO_OPERATORS;
    const signedIn = await login(owner.email, owner.password);
    expect(signedIn.status).toBe(200);
    const sessions = await db.adminSession.count({ where: { user: { email: owner.email } } });
    expect(sessions).toBeGreaterThan(0);
    await seedDemo(db);
    expect(await db.adminSession.count({ where: { user: { email: owner.email } } })).toBe(sessions);
  });
});
