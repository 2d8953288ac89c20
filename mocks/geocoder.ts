import { http, HttpResponse } from "msw";
import zipcodes from "zipcodes";

/**
 * A stand-in for the Nominatim search API: it places an address at the
 * centre of its ZIP code, and finds nothing for a ZIP it does not know.
 */
export const GEOCODER_URL = "https://nominatim.openstreetmap.org/search";

export const geocoderHandlers = [
  http.get(GEOCODER_URL, ({ request }) => {
    const query = new URL(request.url).searchParams.get("q") ?? "";
    const zip = query.match(/(\d{5})(?:-\d{4})?\s*$/)?.[1];
    const place = zip ? zipcodes.lookup(zip) : undefined;
    if (!place) return HttpResponse.json([]);
    return HttpResponse.json([
      { lat: String(place.latitude), lon: String(place.longitude), display_name: `${place.city}, ${place.state} ${zip}` },
    ]);
  }),
];
