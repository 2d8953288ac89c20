import { delay, http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { checkDelivery } from "~/models/delivery.server";
import { geocodeAddress } from "~/services/geocoder.server";
import { GEOCODER_URL } from "../../mocks/geocoder";
import { server } from "../setup/msw";

const street = (overrides: Partial<{ address: string; city: string; state: string; zipCode: string }> = {}) => ({
  address: `${Math.floor(Math.random() * 9000) + 1000} Ocean Park Blvd`,
  city: "Santa Monica",
  state: "CA",
  zipCode: "90405",
  ...overrides,
});

describe("geocoding (Nominatim usage policy)", () => {
  it("asks with format=json, the full address as q, limit=1 and an identifying User-Agent", async () => {
    let seen: URL | undefined;
    let agent: string | null = null;
    server.use(
      http.get(GEOCODER_URL, ({ request }) => {
        seen = new URL(request.url);
        agent = request.headers.get("User-Agent");
        return HttpResponse.json([{ lat: "34.01", lon: "-118.47" }]);
      }),
    );
    const address = street({ address: "2 Main St" });
    const result = await geocodeAddress(address);
    expect(result).toEqual({ position: { lat: 34.01, lon: -118.47 }, source: "geocoder" });
    expect(seen?.searchParams.get("format")).toBe("json");
    expect(seen?.searchParams.get("q")).toBe("2 Main St, Santa Monica, CA 90405");
    expect(seen?.searchParams.get("limit")).toBe("1");
    expect(agent).toMatch(/ChillPB/);
  });

  it("caches answers: the same address is asked once", async () => {
    let calls = 0;
    server.use(
      http.get(GEOCODER_URL, () => {
        calls++;
        return HttpResponse.json([{ lat: "34.02", lon: "-118.46" }]);
      }),
    );
    const address = street();
    await geocodeAddress(address);
    const again = await geocodeAddress({ ...address, address: `  ${address.address.toUpperCase()} ` });
    expect(calls).toBe(1);
    expect(again?.source).toBe("cache");
  });

  it("falls back to the ZIP centroid when the service finds nothing, times out or fails", async () => {
    server.use(http.get(GEOCODER_URL, () => HttpResponse.json([])));
    expect(await geocodeAddress(street())).toMatchObject({ source: "zip" });

    server.use(
      http.get(GEOCODER_URL, async () => {
        await delay(1000);
        return HttpResponse.json([{ lat: "1", lon: "1" }]);
      }),
    );
    expect(await geocodeAddress(street())).toMatchObject({ source: "zip" });

    server.use(http.get(GEOCODER_URL, () => new HttpResponse("overloaded", { status: 503 })));
    expect(await geocodeAddress(street())).toMatchObject({ source: "zip" });

    server.use(http.get(GEOCODER_URL, () => HttpResponse.json([{ lat: "not a number", lon: "x" }])));
    expect(await geocodeAddress(street())).toMatchObject({ source: "zip" });
  });

  it("paces requests at one a second across the whole shop", async () => {
    const times: number[] = [];
    server.use(
      http.get(GEOCODER_URL, () => {
        times.push(Date.now());
        return HttpResponse.json([{ lat: "34.03", lon: "-118.45" }]);
      }),
    );
    await Promise.all([geocodeAddress(street()), geocodeAddress(street()), geocodeAddress(street())]);
    times.sort((a, b) => a - b);
    expect(times).toHaveLength(3);
    // One shared row hands out one-second slots: the three calls took three of
    // them, and none asked before its slot began (a timer may round down by 1 ms).
    const pace = await db.apiPace.findMany();
    expect(pace).toHaveLength(1);
    const firstSlot = Number(pace[0]!.nextAt) - 3 * 1000;
    times.forEach((time, index) => expect(time).toBeGreaterThanOrEqual(firstSlot + index * 1000 - 1));
  });
});

describe("the delivery check", () => {
  it("places an address in range in its zone, with the zone's minimum in cents", async () => {
    server.use(http.get(GEOCODER_URL, () => HttpResponse.json([{ lat: "33.8896", lon: "-118.3996" }])));
    const check = await checkDelivery(street({ city: "Manhattan Beach", zipCode: "90266" }));
    expect(check).toEqual({ ok: true, miles: 11.1, zone: "extended", minimumCents: 5000 });
  });

  it("says not-located when nothing can place the address", async () => {
    server.use(http.get(GEOCODER_URL, () => HttpResponse.error()));
    const check = await checkDelivery(street({ zipCode: "99999" }));
    expect(check).toEqual({ ok: false, reason: "not-located" });
  });
});
