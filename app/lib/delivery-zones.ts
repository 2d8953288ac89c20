/**
 * How a delivery check can fail, in the words the checkout and simple-checkout
 * give (requirements §3). The zones themselves are the owner's settings
 * (app/lib/shop-settings.ts).
 */
export const DELIVERY_PROBLEMS = {
  "not-located": "Could not determine location",
  "check-failed": "Error checking delivery distance",
} as const;

export type DeliveryProblem = keyof typeof DELIVERY_PROBLEMS;
