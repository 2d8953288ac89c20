import { db } from "~/utils/db.server";

export type Category = "bars" | "bites";

export function parseCategory(value: string | null): Category | null {
  return value === "bars" || value === "bites" ? value : null;
}

const productSelect = {
  id: true,
  name: true,
  description: true,
  priceCents: true,
  category: true,
  flavor: true,
  image: true,
  imageAlt: true,
  imageWidth: true,
  imageHeight: true,
  inStock: true,
} as const;

export type Product = Awaited<ReturnType<typeof listProducts>>[number];

export function listProducts(category: Category | null = null) {
  return db.product.findMany({
    select: productSelect,
    where: category ? { category } : undefined,
    orderBy: { position: "asc" },
  });
}

export function findProducts(ids: string[]) {
  return db.product.findMany({ select: productSelect, where: { id: { in: ids } } });
}

/** One product by id, or null: the product page answers 404 for an id the catalogue does not have. */
export function findProduct(id: string) {
  return db.product.findUnique({ select: productSelect, where: { id } });
}
