import { DELIVERY_ZONES, type DeliveryZone } from "~/lib/delivery-zones";
import { env } from "~/utils/env.server";
import { geocodeAddress, type Position, type StreetAddress } from "~/services/geocoder.server";

const EARTH_RADIUS_MILES = 3959;

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

/** The delivery check result of spec §3; minimumOrder is in dollars as the spec's clients read it. */
export type DeliveryCheck = {
  isWithinRange: boolean;
  distance: number | null;
  deliveryZone: DeliveryZone;
  minimumOrder: number;
  error?: string;
};

export function deliveryForDistance(miles: number): DeliveryCheck {
  const { zone, minimumCents } = zoneForDistance(miles);
  return {
    isWithinRange: zone !== "no-delivery",
    // The zone is decided on the exact distance; only the display is rounded.
    distance: Math.round(miles * 10) / 10,
    deliveryZone: zone,
    minimumOrder: minimumCents / 100,
  };
}

export async function checkDelivery(street: StreetAddress): Promise<DeliveryCheck> {
  try {
    const located = await geocodeAddress(street);
    if (!located) return outOfRange("Could not determine location");
    return deliveryForDistance(distanceMiles(kitchenPosition(), located.position));
  } catch (error) {
    console.error("Delivery check failed", error);
    return outOfRange("Error checking delivery distance");
  }
}

function outOfRange(error: string): DeliveryCheck {
  return { isWithinRange: false, distance: null, deliveryZone: "no-delivery", minimumOrder: 0, error };
}

export function zoneMinimumCents(check: DeliveryCheck) {
  return Math.round(check.minimumOrder * 100);
}
