/**
 * What the owner's catalogue functions answer, as the admin receives them
 * (browser-safe): the server builds these shapes and the admin reads them, so
 * the two cannot drift apart. Dates are ISO strings.
 */

/** One change in a product's or code's history (the audit record). */
export type AuditRecord = { actorEmail: string; action: string; at: string; before: unknown; after: unknown };

/** A discount code with its terms and how many orders hold it (get-discount-codes, save-discount-code). */
export type DiscountCodeJson = {
  code: string;
  percentOff: number;
  description: string;
  active: boolean;
  firstOrderOnly: boolean;
  usageLimit: number | null;
  /** ISO date-time, or null for no expiry. */
  expiresAt: string | null;
  expired: boolean;
  /** Paid orders holding the code, refunded ones included (a refund does not give the use back). */
  uses: number;
  /** Unpaid orders holding it while their payment page is open. */
  reserved: number;
  usesHeld: number;
  updatedAt: string;
};
