import type { DiscountOffer, DiscountScope } from "./discount-code";
import type { NutritionFacts, ProductFacts } from "./product-facts";
/**
 * What the owner's catalogue functions answer, as the admin receives them
 * (browser-safe): the server builds these shapes and the admin reads them, so
 * the two cannot drift apart. Dates are ISO strings.
 */

/** One change in a product's or code's history (the audit record). */
export type AuditRecord = { actorEmail: string; action: string; at: string; before: unknown; after: unknown };

/** A product as get-products and update-product answer it: requirements §3's fields with the price in dollars, and its latest changes. */
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
  /** How many are left to sell; null for no limit. */
  stock: number | null;
  /** At or below this many left the shop says "Only N left" and the team is emailed once. */
  lowStockThreshold: number;
  /** When the owner archived it (off the shop, kept on orders), or null while it is for sale (decision 065). */
  archivedAt: string | null;
  /** What is in it, as its page says; null when the shop has no facts for it. */
  facts: ProductFacts | null;
  /** Its own Nutrition Facts, per 100 g and the serving's weight; null where the owner has stated none (the founding six have the requirements' statements in `facts`). */
  nutrition: NutritionFacts | null;
  /** The nutrition claims its card and page make, derived from its facts (decision 096). */
  claims: string[];
  updatedAt: string;
  history: AuditRecord[];
};

/** A discount code's terms, its kind's own figures beside `kind` (decision 088), as the owner sends them to save-discount-code. */
export type DiscountCodeTerms = DiscountOffer & {
  code: string;
  /** Dollars the covered lines must come to; null for none. */
  minimumSubtotal: number | null;
  appliesTo: DiscountScope;
  /** ISO date-time from which the code applies, or null for at once. */
  startsAt: string | null;
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
