import type { DeliveryProblem } from "~/lib/delivery-zones";
import { deliveryRadiusMiles, zoneForDistance, type Position as KitchenPosition, type ShopSettings } from "~/lib/shop-settings";
import { shopSettings } from "~/models/catalog.server";
import { geocodeAddress, zipCentroid, type Position, type StreetAddress } from "~/services/geocoder.server";
import { describeError } from "~/utils/errors.server";
import { shouldRetryLater } from "~/utils/db.server";

const EARTH_RADIUS_MILES = 3959;

/**
 * Where an address stands. `miles` is the distance as shown, rounded to 0.1
 * mile; the zone was decided on the exact distance.
 */
export type DeliveryCheck =
  | { ok: true; zone: string; miles: number; minimumCents: number }
  /** `radiusMiles`: how far the shop delivers, for the words "outside our 25-mile area". */
  | { ok: false; reason: "outside-area"; miles: number; radiusMiles: number }
  | { ok: false; reason: DeliveryProblem };

export type DeliveryInRange = Extract<DeliveryCheck, { ok: true }>;

/** Great-circle distance (haversine) in miles. */
export function distanceMiles(from: Position, to: Position) {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = rad(to.lat - from.lat);
  const dLon = rad(to.lon - from.lon);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(from.lat)) * Math.cos(rad(to.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Where an address this far from the kitchen stands, on these settings' zones. */
export function deliveryForDistance(settings: ShopSettings, exactMiles: number): DeliveryCheck {
  const zone = zoneForDistance(settings, exactMiles);
  const miles = Math.round(exactMiles * 10) / 10;
  return zone
    ? { ok: true, zone: zone.name, miles, minimumCents: zone.minimumOrderCents }
    : { ok: false, reason: "outside-area", miles, radiusMiles: deliveryRadiusMiles(settings) };
}

/** Measured from the kitchen and judged on the zones as the owner's settings are now. */
export async function checkDelivery(street: StreetAddress): Promise<DeliveryCheck> {
  try {
    const [located, settings] = await Promise.all([geocodeAddress(street), shopSettings({ maxAgeMs: 0 })]);
    if (!located) return { ok: false, reason: "not-located" };
    return deliveryForDistance(settings, distanceMiles(settings.kitchen, located.position));
  } catch (error) {
    // The database busy or away is the request's 503 (try again in a moment), not an address we could not check.
    if (shouldRetryLater(error)) throw error;
    console.error(`Delivery check failed: ${describeError(error)}`);
    return { ok: false, reason: "check-failed" };
  }
}

/**
 * The zone of an address known perhaps only by its ZIP code (get-delivery-dates):
 * the whole address is checked as checkout checks it; a ZIP code alone is
 * placed at its middle, as the shop places an address the geocoder cannot.
 */
export async function checkDeliveryOf(where: Partial<StreetAddress> & { zipCode: string }): Promise<DeliveryCheck> {
  const { address, city, state, zipCode } = where;
  if (address && city && state) return checkDelivery({ address, city, state, zipCode });
  const [position, settings] = await Promise.all([zipCentroid(zipCode), shopSettings({ maxAgeMs: 0 })]);
  if (!position) return { ok: false, reason: "not-located" };
  return deliveryForDistance(settings, distanceMiles(settings.kitchen, position));
}

export type { KitchenPosition };
