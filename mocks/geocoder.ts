import { http, HttpResponse } from "msw";

/**
 * A stand-in for the Nominatim search API: it places an address at the
 * centre of its ZIP code, and finds nothing for a ZIP it does not know.
 */
export const GEOCODER_URL = "https://nominatim.openstreetmap.org/search";

export const geocoderHandlers = [
  http.get(GEOCODER_URL, async ({ request }) => {
    // Loaded on the first lookup: the ZIP database costs the process about 90 MB.
    const { default: zipcodes } = await import("zipcodes");
    const query = new URL(request.url).searchParams.get("q") ?? "";
    const zip = query.match(/(\d{5})(?:-\d{4})?\s*$/)?.[1];
    const place = zip ? zipcodes.lookup(zip) : undefined;
    if (!place) return HttpResponse.json([]);
    return HttpResponse.json([
      { lat: String(place.latitude), lon: String(place.longitude), display_name: `${place.city}, ${place.state} ${zip}` },
    ]);
  }),
];
