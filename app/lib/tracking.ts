/**
 * Shipping carriers and their tracking numbers (decision 027), browser-safe: the
 * server checks an operator's input with `checkTracking`, the admin app checks
 * its form with the same function, and emails and pages build the carrier's
 * tracking link with `trackingUrl`.
 */

/** The carriers an order can ship with; "Local courier" is our own LA delivery, which has no public tracking page. */
export const CARRIERS = ["USPS", "UPS", "FedEx", "DHL", "Local courier"] as const;
export type Carrier = (typeof CARRIERS)[number];

function isCarrier(value: unknown): value is Carrier {
  return (CARRIERS as readonly unknown[]).includes(value);
}

/** Carriers' public tracking pages, as each carrier documents its tracking link. */
const TRACKING_PAGES: Partial<Record<Carrier, (number: string) => string>> = {
  USPS: (number) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`,
  UPS: (number) => `https://www.ups.com/track?tracknum=${number}`,
  FedEx: (number) => `https://www.fedex.com/fedextrack/?trknbr=${number}`,
  DHL: (number) => `https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=${number}`,
};

/** The carrier's tracking page for a number, or null (a local courier, or no number). */
export function trackingUrl(carrier: string | null, number: string | null): string | null {
  if (!number || !isCarrier(carrier)) return null;
  const page = TRACKING_PAGES[carrier];
  // A checked number is only letters, digits and dashes; encoding keeps a stored oddity from breaking the URL.
  return page ? page(encodeURIComponent(number)) : null;
}

const TRACKING_NUMBER_MIN = 6;
const TRACKING_NUMBER_MAX = 40;

export type TrackingInput = { carrier?: string | null; trackingNumber?: string | null };

export type TrackingCheck =
  { ok: true; carrier: Carrier | null; trackingNumber: string | null } | { ok: false; field: "carrier" | "trackingNumber"; error: string };

/**
 * An operator's carrier and tracking number. The number is trimmed, its
 * spaces removed (numbers are printed in groups) and upper-cased; it must then
 * be 6-40 letters, digits or dashes. A number needs its carrier; a carrier
 * alone is fine (a local courier has no number). Empty strings mean "not given".
 */
export function checkTracking(input: TrackingInput): TrackingCheck {
  const carrier = input.carrier?.trim() || null;
  const number = input.trackingNumber?.replace(/\s+/g, "").toUpperCase() || null;
  if (carrier !== null && !isCarrier(carrier)) {
    return { ok: false, field: "carrier", error: `must be one of ${CARRIERS.join(", ")}` };
  }
  if (number !== null) {
    if (number.length < TRACKING_NUMBER_MIN || number.length > TRACKING_NUMBER_MAX) {
      return { ok: false, field: "trackingNumber", error: `must be ${TRACKING_NUMBER_MIN} to ${TRACKING_NUMBER_MAX} characters` };
    }
    if (!/^[A-Z0-9-]+$/.test(number)) return { ok: false, field: "trackingNumber", error: "may only hold letters, digits and dashes" };
    if (carrier === null) return { ok: false, field: "carrier", error: "is required with a tracking number" };
  }
  return { ok: true, carrier, trackingNumber: number };
}
