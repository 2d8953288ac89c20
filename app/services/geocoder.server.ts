import { z } from "zod";
import { db, sqlDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { timeOutsideCall } from "~/utils/metrics.server";

/**
 * Addresses to coordinates through a Nominatim-compatible API, following its
 * usage policy (docs/architecture.md §6): an identifying User-Agent, at most one request
 * a second for the whole shop (paced through the database, so every server
 * instance counts), answers cached, a short timeout, and a ZIP-centroid
 * fallback when the service has no answer or is unreachable.
 */

export type Position = { lat: number; lon: number };
export type StreetAddress = { address: string; city: string; state: string; zipCode: string };
export type Geocoded = { position: Position; source: "geocoder" | "cache" | "zip" };

const GEOCODER_INTERVAL_MS = 1_000;
/** Longer than this in the queue and the visitor gets the ZIP fallback instead of a wait. */
const MAX_QUEUE_WAIT_MS = 3_000;
const NOT_FOUND_TTL_MS = 24 * 60 * 60 * 1000;

const replySchema = z.array(z.object({ lat: z.coerce.number().min(-90).max(90), lon: z.coerce.number().min(-180).max(180) }));

function geocoderQuery({ address, city, state, zipCode }: StreetAddress) {
  return `${address.trim()}, ${city.trim()}, ${state.trim()} ${zipCode.trim()}`;
}

/** The key an address's answer is cached under: its query, lower case, spaces folded (also what forgetting a customer deletes). */
export function geocoderCacheKey(street: StreetAddress) {
  return geocoderQuery(street).toLowerCase().replace(/\s+/g, " ").trim();
}

export async function geocodeAddress(street: StreetAddress): Promise<Geocoded | null> {
  const query = geocoderQuery(street);
  const cacheKey = geocoderCacheKey(street);

  // On the pool through Kysely (decision 068): every order looks its address up here.
  const cached = await sqlDb().selectFrom("GeocodeResult").select(["lat", "lon", "createdAt"]).where("query", "=", cacheKey).executeTakeFirst();
  if (cached?.lat != null && cached.lon != null) return { position: { lat: cached.lat, lon: cached.lon }, source: "cache" };
  const knownMissing = cached && Date.now() - cached.createdAt.getTime() < NOT_FOUND_TTL_MS;

  if (!knownMissing && (await waitForTurn())) {
    const answer = await timeOutsideCall(
      "geocoder",
      "search",
      () => askGeocoder(query),
      (reply) => reply.status === "failed",
    );
    if (answer.status !== "failed") {
      // A "not found" is cached too (as no position), for a day.
      const position = answer.status === "found" ? answer.position : { lat: null, lon: null };
      await db.geocodeResult.upsert({
        where: { query: cacheKey },
        create: { query: cacheKey, ...position },
        update: { ...position, createdAt: new Date() },
      });
      if (answer.status === "found") return { position: answer.position, source: "geocoder" };
    }
  }

  const centroid = await zipCentroid(street.zipCode);
  return centroid ? { position: centroid, source: "zip" } : null;
}

/** not-found: the service answered and found nothing; failed: it could not be asked, or answered nonsense. */
type GeocoderAnswer = { status: "found"; position: Position } | { status: "not-found" } | { status: "failed" };

async function askGeocoder(query: string): Promise<GeocoderAnswer> {
  const url = new URL(env.GEOCODER_URL);
  url.searchParams.set("format", "json");
  url.searchParams.set("q", query);
  url.searchParams.set("limit", "1");
  try {
    const response = await fetch(url, {
      headers: { "User-Agent": env.GEOCODER_USER_AGENT, Accept: "application/json" },
      signal: AbortSignal.timeout(env.GEOCODER_TIMEOUT_MS),
    });
    if (!response.ok) {
      console.warn(`Geocoder answered ${response.status}; using the ZIP fallback`);
      return { status: "failed" };
    }
    const parsed = replySchema.safeParse(await response.json());
    if (!parsed.success) {
      console.warn("Geocoder sent an unexpected reply; using the ZIP fallback");
      return { status: "failed" };
    }
    const position = parsed.data[0];
    return position ? { status: "found", position } : { status: "not-found" };
  } catch (error) {
    console.warn(`Geocoder unreachable (${error instanceof Error ? error.name : "error"}); using the ZIP fallback`);
    return { status: "failed" };
  }
}

/**
 * The ZIP code's centre. The ZIP database (every US code) costs the process
 * about 90 MB, so it is loaded the first time the geocoder cannot answer.
 */
/** The middle of a ZIP code's area: where the shop places an address when the geocoder cannot (and the demo's sample orders). */
export async function zipCentroid(zipCode: string): Promise<Position | null> {
  const { default: zipcodes } = await import("zipcodes");
  const found = zipcodes.lookup(zipCode.slice(0, 5));
  return found ? { lat: found.latitude, lon: found.longitude } : null;
}

/**
 * Takes the next one-second slot for the geocoder, shared by every instance
 * through a compare-and-set on one row. False when the wait would be too long.
 */
async function waitForTurn(): Promise<boolean> {
  const name = "geocoder";
  for (let attempt = 0; attempt < 10; attempt++) {
    const now = Date.now();
    const row = await db.apiPace.findUnique({ where: { name } });
    if (!row) {
      const created = await db.apiPace
        .create({ data: { name, nextAt: BigInt(now + GEOCODER_INTERVAL_MS) } })
        .then(() => true)
        .catch(() => false);
      if (created) return true;
      continue;
    }
    const slot = Math.max(now, Number(row.nextAt));
    if (slot - now > MAX_QUEUE_WAIT_MS) return false;
    const { count } = await db.apiPace.updateMany({
      where: { name, nextAt: row.nextAt },
      data: { nextAt: BigInt(slot + GEOCODER_INTERVAL_MS) },
    });
    if (count === 1) {
      if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
      return true;
    }
  }
  return false;
}
