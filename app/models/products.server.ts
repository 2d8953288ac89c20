import { db } from "~/utils/db.server";
import { auditTrails, recordAudit, type AuditRecord } from "~/models/audit.server";
import { changeCatalog, productFields } from "~/models/catalog.server";
import { centsToDollars } from "~/lib/money";
import type { ProductJson } from "~/lib/owner-records";

/**
 * The owner's side of the catalogue (decision 022): the products as the dashboard
 * lists them, and the one function through which every change to a product is
 * written. Storefront reads stay in catalog.server.ts.
 */

/** What the owner may change on a product. Prices are integer cents here, dollars only at the API's edge. */
export type ProductChanges = {
  inStock?: boolean;
  priceCents?: number;
  name?: string;
  description?: string;
  /** How many are left to sell; null for no limit (decision 063). */
  stock?: number | null;
  lowStockThreshold?: number;
};

const adminSelect = { ...productFields, stock: true, lowStockThreshold: true, updatedAt: true } as const;

export type AdminProduct = Awaited<ReturnType<typeof listProductsForAdmin>>[number];

function listProductsForAdmin() {
  return db.product.findMany({ select: adminSelect, orderBy: { position: "asc" } });
}

/** A product as the functions answer it: requirements §3's fields with the price in dollars, and its latest changes. */
export function productJson(product: AdminProduct, history: AuditRecord[]): ProductJson {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    price: centsToDollars(product.priceCents),
    image: product.image,
    imageAlt: product.imageAlt,
    category: product.category,
    flavor: product.flavor,
    inStock: product.inStock,
    stock: product.stock,
    lowStockThreshold: product.lowStockThreshold,
    updatedAt: product.updatedAt.toISOString(),
    history,
  };
}

/** The catalogue as the owner's dashboard shows it, each product with its change history. */
export async function productsForAdmin() {
  const [products, trails] = await Promise.all([listProductsForAdmin(), auditTrails("product")]);
  return products.map((product) => productJson(product, trails.get(product.id) ?? []));
}

/** The bounds of a price the owner may set, in cents. */
export const MIN_PRICE_CENTS = 50;
export const MAX_PRICE_CENTS = 50_000;

export type ProductUpdate =
  | { ok: true; product: AdminProduct; changed: (keyof ProductChanges)[] }
  | { ok: false; reason: "not-found" };

/**
 * Changes a product and records who changed what, in one transaction. The
 * audit entry holds only the fields that really changed (before and after),
 * so the history reads as a list of edits; a save that changes nothing writes
 * nothing. Carts hold product ids only, so a new price applies to every cart
 * from the next page view on; placed orders keep the price they were placed at
 * (OrderItem.unitPriceCents).
 */
export async function updateProduct(actorEmail: string, productId: string, changes: ProductChanges): Promise<ProductUpdate> {
  // Through changeCatalog: the catalogue version moves in the same transaction,
  // so every instance's cached catalogue and pages follow within a second.
  return changeCatalog(async (tx) => {
    const current = await tx.product.findUnique({ where: { id: productId }, select: adminSelect });
    if (!current) return { ok: false as const, reason: "not-found" as const };
    const fields = (Object.keys(changes) as (keyof ProductChanges)[]).filter(
      (field) => changes[field] !== undefined && changes[field] !== current[field],
    );
    if (fields.length === 0) return { ok: true as const, product: current, changed: [] };
    const data = Object.fromEntries(fields.map((field) => [field, changes[field]])) as ProductChanges;
    // A new batch that lifts the count above the threshold: the next fall to it is news again.
    const stock = data.stock === undefined ? current.stock : data.stock;
    const threshold = data.lowStockThreshold ?? current.lowStockThreshold;
    const refilled = stock === null || stock > threshold;
    const product = await tx.product.update({ where: { id: productId }, data: { ...data, ...(refilled ? { lowStockNotified: false } : {}) }, select: adminSelect });
    await recordAudit(tx, {
      actorEmail,
      action: "product.update",
      subjectType: "product",
      subjectId: productId,
      before: Object.fromEntries(fields.map((field) => [field, current[field]])),
      after: data,
    });
    return { ok: true as const, product, changed: fields };
  });
}
