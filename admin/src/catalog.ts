/**
 * What the owner's catalogue functions answer (get-products, get-discount-codes):
 * the admin's record types for the Products and Discount codes pages.
 */

export type HistoryEntry = { actorEmail: string; action: string; at: string; before: unknown; after: unknown };

export type Product = {
  id: string;
  name: string;
  description: string;
  /** Dollars, as spec §3 has it. */
  price: number;
  image: string;
  imageAlt: string;
  category: string;
  flavor: string;
  inStock: boolean;
  updatedAt: string;
  history: HistoryEntry[];
};

export type ProductChanges = Partial<Pick<Product, "name" | "description" | "price" | "inStock">>;

export type DiscountCode = {
  code: string;
  percentOff: number;
  description: string;
  active: boolean;
  firstOrderOnly: boolean;
  usageLimit: number | null;
  /** ISO date-time, or null for no expiry. */
  expiresAt: string | null;
  expired: boolean;
  /** Paid orders holding the code. */
  uses: number;
  /** Unpaid orders holding it while their payment page is open. */
  reserved: number;
};

export type DiscountCodeTerms = Pick<DiscountCode, "code" | "percentOff" | "description" | "active" | "firstOrderOnly" | "usageLimit" | "expiresAt">;
