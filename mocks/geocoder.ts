import type { HttpHandler } from "msw";
// Relative paths, not ~/ (see mocks/stripe.ts).
import { env } from "../app/utils/env.server";
import { DISTANCE_ZIP, GEOCODER_FAULTS } from "./test-scenarios";
import { shopSettings } from "../app/models/catalog.server";

/**
 * A stand-in for the Nominatim search API: it places an address at the
 * centre of its ZIP code, and finds nothing for a ZIP it does not know.
 * Testers' triggers (mocks/test-scenarios.ts): a ZIP `00ddd` lies ddd tenths
 * of a mile due north of the kitchen; a street address saying "geocoder
 * error" or "geocoder timeout" makes the service fail so.
 */
export const GEOCODER_URL = "https://nominatim.openstreetmap.org/search";

const EARTH_RADIUS_MILES = 3959;

/**
 * The point `miles` due north of the kitchen (where the owner's settings put
 * it, so the triggers follow a moved kitchen): along a meridian the great-circle
 * distance is the latitude's change. A millionth of a mile nearer, so that a
 * zone's edge (10.0 miles) lands inside it, as "up to 10 miles" means, rather
 * than wherever floating point rounds.
 */
async function northOfKitchen(miles: number) {
  const { lat, lon } = (await shopSettings({ maxAgeMs: 0 })).kitchen;
  return { lat: lat + (((miles - 1e-6) / EARTH_RADIUS_MILES) * 180) / Math.PI, lon };
}

/** The stand-in's handler; MSW is imported when the stand-ins start (see stripeHandlers). */
export async function geocoderHandlers(): Promise<HttpHandler[]> {
  const { delay, http, HttpResponse } = await import("msw");
  return [
    http.get(GEOCODER_URL, async ({ request }) => {
      const query = new URL(request.url).searchParams.get("q") ?? "";
      const lower = query.toLowerCase();
      if (lower.includes(GEOCODER_FAULTS.error)) return HttpResponse.json({ error: "test trigger: geocoder error" }, { status: 500 });
      if (lower.includes(GEOCODER_FAULTS.timeout)) {
        await delay(env.GEOCODER_TIMEOUT_MS + 2_000);
        return HttpResponse.json([]);
      }
      const zip = query.match(/(\d{5})(?:-\d{4})?\s*$/)?.[1];
      const tenths = zip?.match(DISTANCE_ZIP)?.[1];
      if (tenths !== undefined) {
        const { lat, lon } = await northOfKitchen(Number(tenths) / 10);
        return HttpResponse.json([{ lat: String(lat), lon: String(lon), display_name: `Test address ${zip}` }]);
      }
      // Loaded on the first lookup: the ZIP database costs the process about 90 MB.
      const { default: zipcodes } = await import("zipcodes");
      const place = zip ? zipcodes.lookup(zip) : undefined;
      if (!place) return HttpResponse.json([]);
      return HttpResponse.json([{ lat: String(place.latitude), lon: String(place.longitude), display_name: `${place.city}, ${place.state} ${zip}` }]);
    }),
  ];
}
