/**
 * The shop's terms the owner edits in the admin (docs/decisions/052): the
 * shipping fee, free shipping, the order minimum, the kitchen and the delivery
 * zones. Browser-safe: the types, the requirements' numbers as defaults, and
 * which zone a distance falls in. Every figure a customer pays is still
 * decided by app/models/pricing.server.ts from these.
 */

import { DEFAULT_DELIVERY_SCHEDULE, type DeliverySchedule } from "~/lib/delivery-schedule";

export type Position = { lat: number; lon: number };

export type ZoneTerms = {
  /** Shown as "<name> zone" and stored on the order ("standard"). */
  name: string;
  /** An address this far from the kitchen or nearer is in the zone (unless a nearer zone takes it). */
  upToMiles: number;
  minimumOrderCents: number;
  /** null: the shop-wide fee applies. */
  shippingFeeCents: number | null;
  /** null: the shop-wide threshold applies. */
  freeShippingThresholdCents: number | null;
};

export type ShopSettings = {
  shippingFeeCents: number;
  freeShippingThresholdCents: number;
  minimumOrderCents: number;
  kitchen: Position;
  /** The kitchen's street address as the owner typed it, when they set it by its address (decision 097). */
  kitchenAddress?: string | null;
  /** Nearest first. */
  zones: ZoneTerms[];
  /** The days the shop delivers, and how a customer chooses one (decision 100). */
  delivery: DeliverySchedule;
  /** The shop's postal address, in every email's footer; required before a campaign is sent (decision 101). */
  postalAddress?: string | null;
};

/**
 * A zone on the shop-wide terms but for what is given: no minimum of its
 * own, the shop's fee and free-shipping threshold. A term added to ZoneTerms
 * gets its neutral value here, once, for the defaults and every test's zone.
 */
export function zoneWith(terms: Pick<ZoneTerms, "name" | "upToMiles"> & Partial<ZoneTerms>): ZoneTerms {
  return { minimumOrderCents: 0, shippingFeeCents: null, freeShippingThresholdCents: null, ...terms };
}

/** The West LA kitchen (requirements §9). */
export const DEFAULT_KITCHEN: Position = { lat: 34.0443, lon: -118.4509 };

/** The requirements' numbers (§9): what a shop whose owner has saved nothing charges. */
export const DEFAULT_SETTINGS: ShopSettings = {
  shippingFeeCents: 1000,
  freeShippingThresholdCents: 5000,
  minimumOrderCents: 2000,
  kitchen: DEFAULT_KITCHEN,
  zones: [
    zoneWith({ name: "standard", upToMiles: 10 }),
    zoneWith({ name: "extended", upToMiles: 20, minimumOrderCents: 5000 }),
    zoneWith({ name: "premium", upToMiles: 25, minimumOrderCents: 10000 }),
  ],
  delivery: DEFAULT_DELIVERY_SCHEDULE,
};

/** The zone an exact distance falls in (nearest first), or null outside every zone. */
export function zoneForDistance(settings: ShopSettings, miles: number): ZoneTerms | null {
  return settings.zones.find((zone) => miles <= zone.upToMiles) ?? null;
}

export function zoneNamed(settings: ShopSettings, name: string | null | undefined): ZoneTerms | null {
  return name ? (settings.zones.find((zone) => zone.name === name) ?? null) : null;
}

/** How far from the kitchen the shop delivers at all. */
export function deliveryRadiusMiles(settings: ShopSettings) {
  return Math.max(0, ...settings.zones.map((zone) => zone.upToMiles));
}

/**
 * What the storefront's words state (the badge, the tiles, the terms page,
 * the notices): the numbers only, for the root loader to hand every page.
 */
export type ShopTerms = {
  shippingFeeCents: number;
  freeShippingThresholdCents: number;
  minimumOrderCents: number;
  radiusMiles: number;
  zones: { name: string; upToMiles: number; minimumOrderCents: number; shippingFeeCents: number; freeShippingThresholdCents: number }[];
  /** What the copy says of the delivery days (app/lib/delivery-schedule.ts's scheduleSentence). */
  delivery: Pick<DeliverySchedule, "days" | "cutoff" | "leadDays">;
};

export function shopTerms(settings: ShopSettings): ShopTerms {
  return {
    shippingFeeCents: settings.shippingFeeCents,
    freeShippingThresholdCents: settings.freeShippingThresholdCents,
    minimumOrderCents: settings.minimumOrderCents,
    radiusMiles: deliveryRadiusMiles(settings),
    zones: settings.zones.map((zone) => ({
      name: zone.name,
      upToMiles: zone.upToMiles,
      minimumOrderCents: zone.minimumOrderCents,
      shippingFeeCents: zone.shippingFeeCents ?? settings.shippingFeeCents,
      freeShippingThresholdCents: zone.freeShippingThresholdCents ?? settings.freeShippingThresholdCents,
    })),
    delivery: { days: settings.delivery.days, cutoff: settings.delivery.cutoff, leadDays: settings.delivery.leadDays },
  };
}

/** A zone's name as the pages say it: "extended" → "Extended". */
export function zoneLabel(name: string) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
