import { db } from "~/utils/db.server";
import { auditTrails, recordAudit, type AuditRecord } from "~/models/audit.server";
import { changeCatalog, productFields, type Category } from "~/models/catalog.server";
import { storePicture, type PreparedPicture } from "~/models/product-images.server";
import { productFactsOf } from "~/models/product-facts.server";
import { centsToDollars } from "~/lib/money";
import type { ProductJson } from "~/lib/owner-records";
import {
  allergensOf,
  labelFacts,
  nutritionClaims,
  recipeFacts,
  type Allergen,
  type Ingredient,
  type NutritionFacts,
  type ProductFacts,
} from "~/lib/product-facts";

/**
 * The owner's side of the catalogue (decision 022): the products as the dashboard
 * lists them, and the one function through which every change to a product is
 * written. Storefront reads stay in catalog.server.ts.
 */

/** What the owner may change on a product's row. Prices are integer cents here, dollars only at the API's edge. */
type RowChanges = {
  inStock?: boolean;
  priceCents?: number;
  name?: string;
  description?: string;
  category?: Category;
  flavor?: string;
  imageAlt?: string;
  /** How many are left to sell; null for no limit (decision 063). */
  stock?: number | null;
  lowStockThreshold?: number;
};

/** What the owner may change of what is in it (decision 096): its facts are made again from these and the rest kept. */
type RecipeChanges = {
  ingredients?: Ingredient[];
  /** Allergens declared besides the ones the ingredients bring. */
  allergens?: Allergen[];
  /** Its own label, or null to state none. */
  nutrition?: NutritionFacts | null;
};

export type ProductChanges = RowChanges & RecipeChanges;

const adminSelect = { ...productFields, stock: true, lowStockThreshold: true, archivedAt: true, facts: true, updatedAt: true } as const;

export type AdminProduct = Awaited<ReturnType<typeof listProductsForAdmin>>[number];

/** Every product, archived ones too, in the shop's order (bars, then bites). */
function listProductsForAdmin() {
  return db.product.findMany({ select: adminSelect, orderBy: [{ category: "asc" }, { position: "asc" }] });
}

/** A product as the functions answer it: requirements §3's fields with the price in dollars, and its latest changes. */
export function productJson(product: AdminProduct, history: AuditRecord[]): ProductJson {
  const facts = productFactsOf(product);
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
    facts,
    nutrition: labelFacts(facts?.nutrition ?? null),
    claims: nutritionClaims(facts?.nutrition ?? null),
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

const rowFields = [
  "inStock",
  "priceCents",
  "name",
  "description",
  "category",
  "flavor",
  "imageAlt",
  "stock",
  "lowStockThreshold",
] as const satisfies readonly (keyof RowChanges)[];
const recipeFields = ["ingredients", "allergens", "nutrition"] as const satisfies readonly (keyof RecipeChanges)[];

/** What the recipe fields were, as the owner would send them: the allergens declared beyond the ingredients', the label's facts. */
function recipeOf(facts: ProductFacts | null): Required<RecipeChanges> {
  const ingredients = facts?.ingredients.map((entry) => entry.ingredient) ?? [];
  const brought = allergensOf(ingredients);
  return {
    ingredients,
    allergens: (facts?.allergens ?? []).filter((allergen) => !brought.includes(allergen)),
    nutrition: labelFacts(facts?.nutrition ?? null),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

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
    const rowChanged = rowFields.filter((field) => changes[field] !== undefined && changes[field] !== current[field]);
    const facts = productFactsOf(current);
    const recipe = recipeOf(facts);
    const recipeChanged = recipeFields.filter((field) => changes[field] !== undefined && !same(changes[field], recipe[field]));
    const fields = [...rowChanged, ...recipeChanged];
    if (fields.length === 0) return { ok: true as const, product: current, changed: [] };
    const data: RowChanges = Object.fromEntries(rowChanged.map((field) => [field, changes[field]]));
    const newRecipe = { ...recipe, ...Object.fromEntries(recipeChanged.map((field) => [field, changes[field]])) };
    // A label the owner states replaces what the requirements stated; leaving it alone keeps it.
    const nutrition = recipeChanged.includes("nutrition")
      ? newRecipe.nutrition && { per: "label" as const, ...newRecipe.nutrition }
      : (facts?.nutrition ?? null);
    const newFacts =
      recipeChanged.length > 0 ? recipeFacts({ ingredients: newRecipe.ingredients, allergens: newRecipe.allergens, nutrition, before: facts }) : undefined;
    // A new batch that lifts the count above the threshold: the next fall to it is news again.
    const stock = data.stock === undefined ? current.stock : data.stock;
    const threshold = data.lowStockThreshold ?? current.lowStockThreshold;
    const refilled = stock === null || stock > threshold;
    const product = await tx.product.update({
      where: { id: productId },
      data: { ...data, ...(newFacts ? { facts: newFacts } : {}), ...(refilled ? { lowStockNotified: false } : {}) },
      select: adminSelect,
    });
    await recordAudit(tx, {
      actorEmail,
      action: "product.update",
      subjectType: "product",
      subjectId: productId,
      before: {
        ...Object.fromEntries(rowChanged.map((field) => [field, current[field]])),
        ...Object.fromEntries(recipeChanged.map((field) => [field, recipe[field]])),
      },
      after: { ...data, ...Object.fromEntries(recipeChanged.map((field) => [field, newRecipe[field]])) },
    });
    return { ok: true as const, product, changed: fields };
  });
}

/**
 * Gives a product a new picture (decision 096), checked as Add product checks
 * one, and its description if the owner wrote a new one. The old picture's
 * files stay: a page cached a moment ago may still show it.
 */
export async function replacePicture(
  actorEmail: string,
  productId: string,
  picture: PreparedPicture,
  imageAlt: string | undefined,
): Promise<AdminProduct | null> {
  return changeCatalog(async (tx) => {
    const current = await tx.product.findUnique({ where: { id: productId }, select: adminSelect });
    if (!current) return null;
    await storePicture(tx, picture);
    const product = await tx.product.update({
      where: { id: productId },
      data: { image: picture.image, imageWidth: picture.imageWidth, imageHeight: picture.imageHeight, ...(imageAlt === undefined ? {} : { imageAlt }) },
      select: adminSelect,
    });
    await recordAudit(tx, {
      actorEmail,
      action: "product.picture",
      subjectType: "product",
      subjectId: productId,
      before: { image: current.image, imageAlt: current.imageAlt },
      after: { image: product.image, imageAlt: product.imageAlt },
    });
    return product;
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
  /** Its own label, or null: then it makes no nutrition claim. */
  nutrition: NutritionFacts | null;
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
  const facts = recipeFacts({
    ingredients: input.ingredients,
    allergens: input.allergens,
    nutrition: input.nutrition && { per: "label", ...input.nutrition },
  });
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
