/**
 * What the owner's catalogue functions answer (get-products, get-discount-codes):
 * the admin's record types for the Products and Discount codes pages.
 */

import type { AuditRecord, DiscountCodeJson } from "@shop/owner-records";

export type HistoryEntry = AuditRecord;

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

export type DiscountCode = DiscountCodeJson;

export type DiscountCodeTerms = Pick<DiscountCode, "code" | "percentOff" | "description" | "active" | "firstOrderOnly" | "usageLimit" | "expiresAt">;
