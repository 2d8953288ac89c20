import { db } from "~/utils/db.server";
import { auditTrails, recordAudit, type AuditRecord } from "~/models/audit.server";
import { changeCatalog, productFields, type Category } from "~/models/catalog.server";
import { storePicture, type PreparedPicture } from "~/models/product-images.server";
import { productFactsOf } from "~/models/product-facts.server";
import { centsToDollars } from "~/lib/money";
import type { ProductJson } from "~/lib/owner-records";
import { recipeFacts, type Allergen, type Ingredient } from "~/lib/product-facts";

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

const adminSelect = { ...productFields, stock: true, lowStockThreshold: true, archivedAt: true, facts: true, updatedAt: true } as const;

export type AdminProduct = Awaited<ReturnType<typeof listProductsForAdmin>>[number];

/** Every product, archived ones too, in the shop's order (bars, then bites). */
function listProductsForAdmin() {
  return db.product.findMany({ select: adminSelect, orderBy: [{ category: "asc" }, { position: "asc" }] });
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
    archivedAt: product.archivedAt?.toISOString() ?? null,
    facts: productFactsOf(product),
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

export type ProductUpdate = { ok: true; product: AdminProduct; changed: (keyof ProductChanges)[] } | { ok: false; reason: "not-found" };

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
    const fields = (Object.keys(changes) as (keyof ProductChanges)[]).filter((field) => changes[field] !== undefined && changes[field] !== current[field]);
    if (fields.length === 0) return { ok: true as const, product: current, changed: [] };
    const data = Object.fromEntries(fields.map((field) => [field, changes[field]])) as ProductChanges;
    // A new batch that lifts the count above the threshold: the next fall to it is news again.
    const stock = data.stock === undefined ? current.stock : data.stock;
    const threshold = data.lowStockThreshold ?? current.lowStockThreshold;
    const refilled = stock === null || stock > threshold;
    const product = await tx.product.update({
      where: { id: productId },
      data: { ...data, ...(refilled ? { lowStockNotified: false } : {}) },
      select: adminSelect,
    });
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

/** A product the owner adds (create-product): prices in integer cents; its facts are made from its recipe. */
export type NewProduct = {
  name: string;
  description: string;
  priceCents: number;
  category: Category;
  flavor: string;
  ingredients: Ingredient[];
  /** Allergens declared besides the ones the ingredients bring. */
  allergens: Allergen[];
  imageAlt: string;
  /** Null for no limit (decision 063). */
  stock: number | null;
  lowStockThreshold: number;
};

/** The id a name gives: "Mango Tango!" in bars → "bar-mango-tango", as the founding products are named. */
export function productIdFor(name: string, category: Category) {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return `${category === "bars" ? "bar" : "bites"}-${slug || "product"}`;
}

/**
 * Adds a product with its picture (decision 065), in one transaction with
 * its record and the catalogue's version: its id from its name (a taken one
 * gets -2, -3 …), last of its range on the shop, its facts in Product.facts,
 * its picture's files beside it. Through changeCatalog, so every instance's
 * cached catalogue and pages show it within a second.
 */
export async function createProduct(actorEmail: string, input: NewProduct, picture: PreparedPicture): Promise<AdminProduct> {
  const facts = recipeFacts({ category: input.category, ingredients: input.ingredients, allergens: input.allergens });
  return changeCatalog(async (tx) => {
    const base = productIdFor(input.name, input.category);
    const taken = new Set((await tx.product.findMany({ where: { id: { startsWith: base } }, select: { id: true } })).map((row) => row.id));
    let id = base;
    for (let suffix = 2; taken.has(id); suffix += 1) id = `${base}-${suffix}`;
    const { _max } = await tx.product.aggregate({ _max: { position: true } });
    await storePicture(tx, picture);
    const product = await tx.product.create({
      data: {
        id,
        name: input.name,
        description: input.description,
        priceCents: input.priceCents,
        category: input.category,
        flavor: input.flavor,
        image: picture.image,
        imageAlt: input.imageAlt,
        imageWidth: picture.imageWidth,
        imageHeight: picture.imageHeight,
        stock: input.stock,
        lowStockThreshold: input.lowStockThreshold,
        // Ordered within its range (the shop sorts by category, then position): after everything there is.
        position: (_max.position ?? 0) + 1,
        facts,
      },
      select: adminSelect,
    });
    await recordAudit(tx, {
      actorEmail,
      action: "product.create",
      subjectType: "product",
      subjectId: id,
      before: null,
      after: {
        name: input.name,
        priceCents: input.priceCents,
        category: input.category,
        flavor: input.flavor,
        image: picture.image,
        stock: input.stock,
        allergens: facts.allergens,
      },
    });
    return product;
  });
}

export type ArchiveResult = { ok: true; product: AdminProduct; changed: boolean } | { ok: false; reason: "not-found" };

/**
 * Takes a product off the shop (`archived: true`) or puts it back on sale
 * (decision 065). Nothing is deleted: orders keep their lines, and carts that
 * hold it are told it is no longer sold. Asking for what already is changes
 * and records nothing.
 */
export async function setArchived(actorEmail: string, productId: string, archived: boolean): Promise<ArchiveResult> {
  return changeCatalog(async (tx) => {
    const current = await tx.product.findUnique({ where: { id: productId }, select: adminSelect });
    if (!current) return { ok: false as const, reason: "not-found" as const };
    if ((current.archivedAt !== null) === archived) return { ok: true as const, product: current, changed: false };
    const archivedAt = archived ? new Date() : null;
    const product = await tx.product.update({ where: { id: productId }, data: { archivedAt }, select: adminSelect });
    await recordAudit(tx, {
      actorEmail,
      action: archived ? "product.archive" : "product.restore",
      subjectType: "product",
      subjectId: productId,
      before: { archivedAt: current.archivedAt?.toISOString() ?? null },
      after: { archivedAt: archivedAt?.toISOString() ?? null },
    });
    return { ok: true as const, product, changed: true };
  });
}
