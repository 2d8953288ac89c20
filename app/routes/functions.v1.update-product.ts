import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { centsToDollars, dollarsToCents, formatCents } from "~/lib/money";
import { auditTrail } from "~/models/audit.server";
import { MAX_PRICE_CENTS, MIN_PRICE_CENTS, productJson, updateProduct } from "~/models/products.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonForm } from "~/utils/api.server";

const text = (label: string, max: number) =>
  z
    .string({ invalid_type_error: `${label} must be text` })
    .trim()
    .min(1, `${label} cannot be empty`)
    .max(max, `${label} can be at most ${max} characters`);

const bodySchema = z
  .object({
    productId: z.string({ required_error: "is required", invalid_type_error: "must be text" }).min(1, "is required").max(64),
    inStock: z.boolean({ invalid_type_error: "must be true or false" }).optional(),
    price: z
      .number({ invalid_type_error: "Price must be a number of dollars" })
      // A price with at most 2 decimals comes back unchanged from a round trip through cents.
      .refine((dollars) => Number.isFinite(dollars) && Math.abs(centsToDollars(dollarsToCents(dollars)) - dollars) < 1e-8, "Price can have at most 2 decimals")
      .refine(
        (dollars) => dollarsToCents(dollars) >= MIN_PRICE_CENTS && dollarsToCents(dollars) <= MAX_PRICE_CENTS,
        `Price must be between ${formatCents(MIN_PRICE_CENTS)} and ${formatCents(MAX_PRICE_CENTS)}`,
      )
      .optional(),
    name: text("Name", 80).optional(),
    description: text("Description", 500).optional(),
    stock: z
      .number({ invalid_type_error: "Stock must be a whole number, or null for no limit" })
      .int("Stock must be a whole number")
      .min(0, "Stock cannot be negative")
      .max(100_000, "Stock can be at most 100,000")
      .nullable()
      .optional(),
    lowStockThreshold: z
      .number({ invalid_type_error: "Low-stock threshold must be a whole number" })
      .int("Low-stock threshold must be a whole number")
      .min(0, "Low-stock threshold cannot be negative")
      .max(1_000, "Low-stock threshold can be at most 1,000")
      .optional(),
  })
  .refine((body) => [body.inStock, body.price, body.name, body.description, body.stock, body.lowStockThreshold].some((value) => value !== undefined), {
    message: "Send at least one of inStock, price, name, description, stock, lowStockThreshold",
  });

/**
 * { productId, inStock?, price?, name?, description?, stock?, lowStockThreshold? } → { message, product }.
 * Price in dollars with at most 2 decimals, stored as integer cents; stock a
 * whole number of items left, or null for no limit (decision 063).
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("update-product", request, async () => {
    const admin = await requireAdmin(request, "products.manage");
    const body = await readJsonForm(request, bodySchema);
    const update = await updateProduct(admin.email, body.productId, {
      inStock: body.inStock,
      priceCents: body.price === undefined ? undefined : dollarsToCents(body.price),
      name: body.name,
      description: body.description,
      stock: body.stock,
      lowStockThreshold: body.lowStockThreshold,
    });
    if (!update.ok) return apiError(404, "No product with that id.");
    const { product, changed } = update;
    const message =
      changed.length === 0
        ? `${product.name}: nothing to change.`
        : changed.length === 1 && changed[0] === "inStock"
          ? product.inStock
            ? `${product.name} is back in stock.`
            : `${product.name} is now sold out.`
          : `${product.name} saved.`;
    return json({ message, product: productJson(product, await auditTrail("product", product.id, 20)) });
  });
}
