import { zoneForDistance, type Position, type ShopSettings } from "~/lib/shop-settings";
import { distanceMiles } from "~/models/delivery.server";
import { geocodeAddress, zipCentroid, type Geocoded, type StreetAddress } from "~/services/geocoder.server";

/**
 * The kitchen set by its street address (issue 38 item 3, decision 097):
 * found by the geocoder customers' addresses are found by, with the same ZIP
 * fallback, and shown with the delivery zones it would give: which of the
 * area's neighbourhoods each zone would then reach.
 */

/** West LA, the South Bay and their neighbours, each by a ZIP code: what the owner recognises on a map. */
const AREA_PLACES: readonly (readonly [name: string, zipCode: string])[] = [
  ["Santa Monica", "90405"],
  ["Venice", "90291"],
  ["Marina del Rey", "90292"],
  ["Culver City", "90230"],
  ["Westwood", "90024"],
  ["Brentwood", "90049"],
  ["Beverly Hills", "90210"],
  ["El Segundo", "90245"],
  ["Manhattan Beach", "90266"],
  ["Hermosa Beach", "90254"],
  ["Redondo Beach", "90277"],
  ["Torrance", "90503"],
  ["Palos Verdes Estates", "90274"],
  ["Downtown LA", "90012"],
  ["Malibu", "90265"],
  ["Long Beach", "90802"],
  ["Pasadena", "91101"],
];

export type KitchenZones = {
  zones: { name: string; upToMiles: number; places: { name: string; miles: number }[] }[];
  /** The places no zone reaches from there. */
  beyond: { name: string; miles: number }[];
};

/** Which places each zone would reach with the kitchen at `kitchen`, nearest first. */
export async function zonesAround(settings: ShopSettings, kitchen: Position): Promise<KitchenZones> {
  const placed = await Promise.all(
    AREA_PLACES.map(async ([name, zipCode]) => {
      const position = await zipCentroid(zipCode);
      return position ? { name, exact: distanceMiles(kitchen, position) } : null;
    }),
  );
  const places = placed.filter((place) => place !== null).sort((a, b) => a.exact - b.exact);
  const shown = (place: { name: string; exact: number }) => ({ name: place.name, miles: Math.round(place.exact * 10) / 10 });
  return {
    zones: settings.zones.map((zone) => ({
      name: zone.name,
      upToMiles: zone.upToMiles,
      places: places.filter((place) => zoneForDistance(settings, place.exact)?.name === zone.name).map(shown),
    })),
    beyond: places.filter((place) => zoneForDistance(settings, place.exact) === null).map(shown),
  };
}

export type KitchenFound = { found: true; lat: number; lon: number; source: Geocoded["source"]; address: string } & KitchenZones;

/** The kitchen's position at a street address, and the zones it gives; null when neither the geocoder nor its ZIP code places it. */
export async function locateKitchen(settings: ShopSettings, street: StreetAddress): Promise<KitchenFound | null> {
  const located = await geocodeAddress(street);
  if (!located) return null;
  const { lat, lon } = located.position;
  const address = `${street.address.trim()}, ${street.city.trim()}, ${street.state.trim().toUpperCase()} ${street.zipCode.trim()}`;
  return { found: true, lat, lon, source: located.source, address, ...(await zonesAround(settings, located.position)) };
}
