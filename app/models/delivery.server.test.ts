import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, zoneForDistance, zoneWith, type ShopSettings } from "~/lib/shop-settings";
import { deliveryForDistance, distanceMiles } from "~/models/delivery.server";

const kitchenPosition = () => DEFAULT_SETTINGS.kitchen;

describe("delivery zones by distance", () => {
  it.each([
    [0, "standard", 0],
    [10.0, "standard", 0],
    [10.05, "extended", 5000],
    [20, "extended", 5000],
    [20.01, "premium", 10000],
    [25, "premium", 10000],
  ] as const)("%s miles is %s with a minimum of %s cents", (miles, zone, minimumCents) => {
    expect(zoneForDistance(DEFAULT_SETTINGS, miles)).toMatchObject({ name: zone, minimumOrderCents: minimumCents });
  });

  it.each([25.01, 120])("%s miles is in no zone", (miles) => {
    expect(zoneForDistance(DEFAULT_SETTINGS, miles)).toBeNull();
  });

  it("decides on the exact distance but shows it rounded to 0.1 mile", () => {
    expect(deliveryForDistance(DEFAULT_SETTINGS, 10.05)).toEqual({ ok: true, miles: 10.1, zone: "extended", minimumCents: 5000 });
    expect(deliveryForDistance(DEFAULT_SETTINGS, 10.04)).toMatchObject({ miles: 10, zone: "extended" });
    expect(deliveryForDistance(DEFAULT_SETTINGS, 25.01)).toEqual({ ok: false, reason: "outside-area", miles: 25, radiusMiles: 25 });
    expect(deliveryForDistance(DEFAULT_SETTINGS, 22.46)).toMatchObject({ ok: true, miles: 22.5, minimumCents: 10000 });
  });

  it("follows the owner's zones: their names, edges, minimums and the radius they make", () => {
    const settings: ShopSettings = {
      ...DEFAULT_SETTINGS,
      zones: [
        zoneWith({ name: "near", upToMiles: 5, minimumOrderCents: 1500, shippingFeeCents: 500 }),
        zoneWith({ name: "far", upToMiles: 30, minimumOrderCents: 8000, freeShippingThresholdCents: 9000 }),
      ],
    };
    expect(deliveryForDistance(settings, 5)).toEqual({ ok: true, miles: 5, zone: "near", minimumCents: 1500 });
    expect(deliveryForDistance(settings, 27)).toEqual({ ok: true, miles: 27, zone: "far", minimumCents: 8000 });
    expect(deliveryForDistance(settings, 30.2)).toEqual({ ok: false, reason: "outside-area", miles: 30.2, radiusMiles: 30 });
  });
});

describe("great-circle distance (earth radius 3959 miles)", () => {
  it("is zero at the kitchen and symmetric", () => {
    const kitchen = kitchenPosition();
    const manhattanBeach = { lat: 33.8896, lon: -118.3996 };
    expect(distanceMiles(kitchen, kitchen)).toBe(0);
    expect(distanceMiles(kitchen, manhattanBeach)).toBeCloseTo(distanceMiles(manhattanBeach, kitchen), 10);
  });

  it("measures one degree of latitude as 3959 × π / 180 miles", () => {
    expect(distanceMiles({ lat: 34, lon: -118 }, { lat: 35, lon: -118 })).toBeCloseTo((3959 * Math.PI) / 180, 6);
  });

  it("puts Manhattan Beach about 11 miles from the West LA kitchen", () => {
    expect(distanceMiles(kitchenPosition(), { lat: 33.8896, lon: -118.3996 })).toBeCloseTo(11.0, 0);
  });
});
