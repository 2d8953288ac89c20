/**
 * What the owner's catalogue functions answer, as the admin receives them
 * (browser-safe): the server builds these shapes and the admin reads them, so
 * the two cannot drift apart. Dates are ISO strings.
 */

/** One change in a product's or code's history (the audit record). */
export type AuditRecord = { actorEmail: string; action: string; at: string; before: unknown; after: unknown };

/** A product as get-products and update-product answer it: spec §3's fields with the price in dollars, and its latest changes. */
export type ProductJson = {
  id: string;
  name: string;
  description: string;
  price: number;
  image: string;
  imageAlt: string;
  category: string;
  flavor: string;
  inStock: boolean;
  updatedAt: string;
  history: AuditRecord[];
};

/** A discount code's terms, as the owner sends them to save-discount-code. */
export type DiscountCodeTerms = {
  code: string;
  percentOff: number;
  description: string;
  active: boolean;
  firstOrderOnly: boolean;
  usageLimit: number | null;
  /** ISO date-time, or null for no expiry. */
  expiresAt: string | null;
};

/** A discount code with its terms and how many orders hold it (get-discount-codes, save-discount-code). */
export type DiscountCodeJson = DiscountCodeTerms & {
  expired: boolean;
  /** Paid orders holding the code, refunded ones included (a refund does not give the use back). */
  uses: number;
  /** Unpaid orders holding it while their payment page is open. */
  reserved: number;
  usesHeld: number;
  updatedAt: string;
};
