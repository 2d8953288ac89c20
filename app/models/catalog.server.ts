import type { PrismaClient } from "~/generated/prisma/client";
import { db, sqlDb, sqlIn, type Sql } from "~/utils/db.server";
import { fingerprintedUrl } from "~/utils/fingerprint.server";
import { env } from "~/utils/env.server";
import { z } from "zod";
import { DEFAULT_SETTINGS, type ShopSettings } from "~/lib/shop-settings";
import { storedZoneSchema } from "~/models/zone-terms.server";
import { deliveryScheduleSchema } from "~/models/delivery-schedule.server";
import { DEFAULT_DELIVERY_SCHEDULE } from "~/lib/delivery-schedule";
import { parseStored } from "~/utils/stored.server";
import { nutritionClaims, type ProductFacts } from "~/lib/product-facts";
import { allergyLabelOf, productFactsOf } from "~/models/product-facts.server";

export type Category = "bars" | "bites";

export function parseCategory(value: string | null): Category | null {
  return value === "bars" || value === "bites" ? value : null;
}

/** A product's own fields, as the shop and the owner's dashboard both read them. */
export const productFields = {
  id: true,
  name: true,
  description: true,
  priceCents: true,
  category: true,
  flavor: true,
  image: true,
  imageAlt: true,
  inStock: true,
} as const;

/** The storefront also lays its pictures out before they load. */
const productSelect = { ...productFields, imageWidth: true, imageHeight: true } as const;

/**
 * What the shop reads of a product: its own fields, the stock it derives what
 * it says from, whether the owner archived it, and its facts.
 */
const shopSelect = { ...productSelect, stock: true, lowStockThreshold: true, archivedAt: true, facts: true } as const;

type ShopRow = { id: string; inStock: boolean; stock: number | null; lowStockThreshold: number; archivedAt: Date | null; facts: unknown };

/**
 * A product as the shop shows it: its stock only as "Sold out" or "Only N
 * left" (decision 063), never the count itself; `forSale` false once the owner
 * archived it (decision 065): such a product is never listed and never in
 * stock, but a cart can still name it and an old order show its picture.
 */
function forTheShop<Row extends ShopRow>({ stock, lowStockThreshold, archivedAt, facts: stored, ...product }: Row) {
  const forSale = archivedAt === null;
  const facts = productFactsOf({ id: product.id, facts: stored });
  return {
    ...product,
    forSale,
    // Sold out by the owner's switch, or by its stock running out; an archived product is not sold at all.
    inStock: forSale && product.inStock && (stock === null || stock > 0),
    /** How many are left when few are (at or below the owner's threshold), else null. */
    stockLeft: forSale && stock !== null && stock > 0 && stock <= lowStockThreshold ? stock : null,
    /** What its card and cart line say about allergies (app/lib/product-facts.ts). */
    allergy: allergyLabelOf(facts),
    /** The nutrition claims its card makes, derived from its facts (decision 096); none where it has none. */
    claims: nutritionClaims(facts?.nutrition ?? null),
  };
}

async function readProducts(client: PrismaClient = db) {
  // Bars first, then bites, each range in the owner's order: a product added later is last of its range (decision 065).
  const products = await client.product.findMany({ select: shopSelect, orderBy: [{ category: "asc" }, { position: "asc" }] });
  // Images by their content's URL, which browsers may keep for a year.
  return products.map((product) => ({ ...forTheShop(product), image: fingerprintedUrl(product.image) }));
}

export type Product = Awaited<ReturnType<typeof readProducts>>[number];

/** The kitchen DELIVERY_ORIGIN names: where distances are measured from until the owner saves the settings. */
function originKitchen() {
  const [lat, lon] = env.DELIVERY_ORIGIN.split(",").map(Number);
  return { lat: lat ?? DEFAULT_SETTINGS.kitchen.lat, lon: lon ?? DEFAULT_SETTINGS.kitchen.lon };
}

/** The zones as ShopSettings.zones stores them (cents), nearest first (zone-terms.server.ts). */
const storedZonesSchema = z.array(storedZoneSchema).min(1);

/** The terms products are sold on (app/lib/shop-settings.ts): the owner's saved ones, or the requirements' numbers. */
export async function readSettings(client: Pick<PrismaClient, "shopSettings"> = db): Promise<ShopSettings> {
  const row = await client.shopSettings.findUnique({ where: { id: 1 } });
  if (!row) return { ...DEFAULT_SETTINGS, kitchen: originKitchen() };
  return {
    shippingFeeCents: row.shippingFeeCents,
    freeShippingThresholdCents: row.freeShippingThresholdCents,
    minimumOrderCents: row.minimumOrderCents,
    kitchen: { lat: row.kitchenLat, lon: row.kitchenLon },
    kitchenAddress: row.kitchenAddress,
    postalAddress: row.postalAddress,
    zones: parseStored("ShopSettings.zones", storedZonesSchema, row.zones),
    delivery:
      row.deliverySchedule === null ? DEFAULT_DELIVERY_SCHEDULE : parseStored("ShopSettings.deliverySchedule", deliveryScheduleSchema, row.deliverySchedule),
  };
}

/**
 * The catalogue is read once and kept in memory, with the version it was read
 * at (docs/decisions/016). Every product write goes through `changeCatalog`,
 * which bumps the one-row CatalogVersion table in the same transaction; each
 * server instance compares that row with what it holds, so a change made on
 * any instance reaches every instance.
 */

/** How long this instance trusts the version it last read before reading it again. */
export const CATALOG_CHECK_INTERVAL_MS = 1_000;

type Snapshot = { version: number; products: Product[]; byId: Map<string, Product>; settings: ShopSettings };

let knownVersion: { version: number; readAt: number } | null = null;
let versionRead: Promise<number> | null = null;
/** When this instance last committed a change that moved the version on (changeCatalog, a stock hold). */
let changedHereAt = 0;
let snapshot: Promise<Snapshot> | null = null;

/**
 * One statement through Kysely, on Prisma's pool (decision 068): every
 * price reads the version afresh (the cart on every page a visitor with a
 * cart gets, the checkout), and a Prisma query costs about ten times the CPU
 * of a node-pg one (3% of `/checkout`'s CPU went to this read).
 */
async function readVersion() {
  const row = await sqlDb().selectFrom("CatalogVersion").select("version").where("id", "=", 1).executeTakeFirst();
  return row?.version ?? 0;
}

/**
 * The catalogue's current version as this instance knows it: read from the
 * database when the last read is older than `maxAgeMs` (concurrent callers
 * share one read). Pages made from the catalogue are at most this stale.
 */
export async function catalogVersion({ maxAgeMs = CATALOG_CHECK_INTERVAL_MS } = {}): Promise<number> {
  if (knownVersion && Date.now() - knownVersion.readAt < maxAgeMs) return knownVersion.version;
  const startedAt = Date.now();
  versionRead ??= readVersion()
    .then((version) => {
      // A read begun before this instance's own change may predate it: it answers its callers, and is not trusted after.
      if (startedAt <= changedHereAt) return version;
      // A write through this instance while the read was under way knows better.
      if (!knownVersion || knownVersion.readAt <= startedAt) knownVersion = { version, readAt: Date.now() };
      return knownVersion.version;
    })
    .finally(() => {
      versionRead = null;
    });
  return versionRead;
}

async function catalogue({ maxAgeMs = CATALOG_CHECK_INTERVAL_MS } = {}): Promise<Snapshot> {
  const version = await catalogVersion({ maxAgeMs });
  const current = snapshot ? await snapshot.catch(() => null) : null;
  if (current && current.version === version) return current;
  // Read the products after the version: a write in between only makes the
  // snapshot newer than its label, and the next check reads it again.
  const next = Promise.all([readProducts(), readSettings()]).then(([products, settings]) => ({
    version,
    products,
    byId: new Map(products.map((product) => [product.id, product])),
    settings,
  }));
  snapshot = next;
  next.catch(() => {
    if (snapshot === next) snapshot = null;
  });
  return next;
}

/** The products for sale in display order, optionally of one category (the shop and landing pages, the sitemap). */
export async function listProducts(category: Category | null = null): Promise<Product[]> {
  const { products } = await catalogue();
  return products.filter((product) => product.forSale && (category === null || product.category === category));
}

/**
 * The products with these ids, archived ones included (`forSale` false, never
 * in stock): a cart names what it can no longer sell, and an old order keeps
 * its pictures. Carts and prices read the version afresh, so an order is
 * always priced with the catalogue as it is now; a page that only shows
 * products (an order's pictures) may trust it for `maxAgeMs`, as pages do.
 */
export async function findProducts(ids: string[], { maxAgeMs = 0 } = {}): Promise<Product[]> {
  const { byId } = await catalogue({ maxAgeMs });
  return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
}

/**
 * The shop's terms. Pages read them as they read the catalogue (at most
 * CATALOG_CHECK_INTERVAL_MS stale); prices read them afresh (`maxAgeMs: 0`),
 * so a cart is priced on the terms as they are now.
 */
export async function shopSettings({ maxAgeMs = CATALOG_CHECK_INTERVAL_MS } = {}): Promise<ShopSettings> {
  return (await catalogue({ maxAgeMs })).settings;
}

/** The products with these ids and the terms they are sold on, from one read of the catalogue. */
export async function productsAndSettings(ids: string[]): Promise<{ products: Product[]; settings: ShopSettings }> {
  const { byId, settings } = await catalogue({ maxAgeMs: 0 });
  return { products: [...new Set(ids)].flatMap((id) => byId.get(id) ?? []), settings };
}

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Moves the catalogue version on in a transaction the caller holds: its
 * change reaches every instance's cached catalogue and pages within
 * CATALOG_CHECK_INTERVAL_MS (changeCatalog, and stock holds, decision 063).
 */
export async function bumpCatalogVersion(sql: Sql): Promise<number> {
  const { version } = await sql.db
    .insertInto("CatalogVersion")
    .values({ id: 1, version: 1 })
    .onConflict((conflict) => conflict.column("id").doUpdateSet((eb) => ({ version: eb("CatalogVersion.version", "+", 1) })))
    .returning("version")
    .executeTakeFirstOrThrow();
  return version;
}

/**
 * This instance has committed a change that moved the catalogue version on
 * (changeCatalog, or a stock hold in the order's own SQL transaction): its next page
 * reads the version afresh instead of trusting the last read for
 * CATALOG_CHECK_INTERVAL_MS, so a customer who has just bought the last one
 * is not shown it for sale by the instance that sold it. Call it after the
 * commit: a read between the bump and the commit would label the products as
 * they were with the new version.
 */
export function catalogChangedHere() {
  knownVersion = null;
  changedHereAt = Date.now();
}

/**
 * The one way to change products (price, stock, name, a new or removed
 * product) or the shop's settings: runs `write` in a transaction that also bumps the catalogue
 * version, so cached catalogues and pages on every instance are replaced.
 */
export async function changeCatalog<T>(write: (tx: Transaction) => Promise<T>, client: PrismaClient = db): Promise<T> {
  const result = await client.$transaction(async (tx) => {
    const written = await write(tx);
    await bumpCatalogVersion(sqlIn(tx));
    return written;
  });
  // This instance knows at once; the others within CATALOG_CHECK_INTERVAL_MS.
  if (client === db) catalogChangedHere();
  return result;
}

/**
 * One product by id as its page shows it (its stock as "Sold out" or "Only N
 * left"), with its facts in full, or null: the product page answers 404 for an
 * id the catalogue does not have, and says an archived one is no longer sold.
 */
export async function findProductPage(id: string): Promise<{ product: Product; facts: ProductFacts | null } | null> {
  const row = await db.product.findUnique({ select: shopSelect, where: { id } });
  return row ? { product: forTheShop(row), facts: productFactsOf(row) } : null;
}

/** One product by id as the shop shows it, or null. */
export async function findProduct(id: string): Promise<Product | null> {
  return (await findProductPage(id))?.product ?? null;
}
