/**
 * Delivery zones by straight-line distance from the kitchen (spec §9,
 * DESIGN.md §5). Browser-safe so that the pages state the same radius the
 * server checks.
 */
export type DeliveryZone = "standard" | "extended" | "premium" | "no-delivery";

/** Nearest first: an address is in the first zone whose `maxMiles` it is within. */
export const DELIVERY_ZONES = [
  { zone: "standard", maxMiles: 10, minimumCents: 0 },
  { zone: "extended", maxMiles: 20, minimumCents: 5000 },
  { zone: "premium", maxMiles: 25, minimumCents: 10000 },
] as const satisfies readonly { zone: Exclude<DeliveryZone, "no-delivery">; maxMiles: number; minimumCents: number }[];

/** Why an address could not be checked, in the words the checkout and simple-checkout give (spec §3). */
export const DELIVERY_PROBLEMS = {
  "not-located": "Could not determine location",
  "check-failed": "Error checking delivery distance",
} as const;

export type DeliveryProblem = keyof typeof DELIVERY_PROBLEMS;

/** How far from the kitchen we deliver at all. */
export const DELIVERY_RADIUS_MILES = Math.max(...DELIVERY_ZONES.map((zone) => zone.maxMiles));
