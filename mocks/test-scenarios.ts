/**
 * The demo's triggers for testers, like Stripe's test cards: what to type to
 * see each outcome the shop handles. The stand-ins in this folder read them;
 * the README's testing section lists them in one table, and the e2e suite
 * uses them (tests/e2e/test-scenarios.spec.ts).
 */

/** Cards on the stand-in's payment page, by their digits. */
export const TEST_CARDS = {
  "4242424242424242": { outcome: "pays" },
  "4000000000000002": { outcome: "declined", message: "Your card was declined." },
  "4000000000009995": { outcome: "insufficient-funds", message: "Your card has insufficient funds." },
  "4000000000000119": { outcome: "processing-error", message: "An error occurred while processing your card. Try again in a little bit." },
} as const satisfies Record<string, { outcome: string; message?: string }>;

/**
 * A ZIP code `00` + three digits puts the address that many tenths of a mile
 * due north of the kitchen: 00100 is 10.0 miles (the standard zone's edge),
 * 00101 is 10.1 (extended). Real ZIP codes are placed at their centre.
 */
export const DISTANCE_ZIP = /^00(\d{3})$/;

/** A ZIP code that neither the geocoder nor the shop's ZIP fallback knows. */
export const UNKNOWN_ZIP = "99999";

/** A street address containing one of these makes the geocoder fail that way (the shop then falls back to the ZIP's centre). */
export const GEOCODER_FAULTS = { error: "geocoder error", timeout: "geocoder timeout" } as const;

/** An email whose name carries this tag (`you+stripe-down@example.com`) finds Stripe unavailable when its order is placed. */
export const STRIPE_DOWN_TAG = "+stripe-down@";

/**
 * An order whose email carries this tag (`you+stripe-slow-refund@example.com`)
 * is refunded by the Stripe stand-in, but its answer comes only after the
 * shop has stopped waiting, for the shop's try and the Stripe library's one
 * retry: the owner sees "Refund pending", and the shop's next check with
 * Stripe (REFUND_CHECK_MS) finds the refund and marks the order refunded.
 */
export const STRIPE_SLOW_REFUND_TAG = "+stripe-slow-refund@";
