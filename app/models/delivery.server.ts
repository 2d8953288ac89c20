import { DELIVERY_ZONES, type DeliveryProblem, type DeliveryZone } from "~/lib/delivery-zones";
import { env } from "~/utils/env.server";
import { geocodeAddress, type Position, type StreetAddress } from "~/services/geocoder.server";

const EARTH_RADIUS_MILES = 3959;

/**
 * Where an address stands. `miles` is the distance as shown, rounded to 0.1
 * mile; the zone was decided on the exact distance.
 */
export type DeliveryCheck =
  | { ok: true; zone: Exclude<DeliveryZone, "no-delivery">; miles: number; minimumCents: number }
  | { ok: false; reason: "outside-area"; miles: number }
  | { ok: false; reason: DeliveryProblem };

export type DeliveryInRange = Extract<DeliveryCheck, { ok: true }>;

export function zoneForDistance(miles: number): { zone: DeliveryZone; minimumCents: number } {
  const found = DELIVERY_ZONES.find((zone) => miles <= zone.maxMiles);
  return found ? { zone: found.zone, minimumCents: found.minimumCents } : { zone: "no-delivery", minimumCents: 0 };
}

/** Great-circle distance (haversine) in miles. */
export function distanceMiles(from: Position, to: Position) {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = rad(to.lat - from.lat);
  const dLon = rad(to.lon - from.lon);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(from.lat)) * Math.cos(rad(to.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function kitchenPosition(): Position {
  const [lat, lon] = env.DELIVERY_ORIGIN.split(",").map(Number);
  return { lat: lat ?? 0, lon: lon ?? 0 };
}

export function deliveryForDistance(exactMiles: number): DeliveryCheck {
  const { zone, minimumCents } = zoneForDistance(exactMiles);
  const miles = Math.round(exactMiles * 10) / 10;
  return zone === "no-delivery" ? { ok: false, reason: "outside-area", miles } : { ok: true, zone, miles, minimumCents };
}

export async function checkDelivery(street: StreetAddress): Promise<DeliveryCheck> {
  try {
    const located = await geocodeAddress(street);
    if (!located) return { ok: false, reason: "not-located" };
    return deliveryForDistance(distanceMiles(kitchenPosition(), located.position));
  } catch (error) {
    console.error("Delivery check failed", error);
    return { ok: false, reason: "check-failed" };
  }
}
