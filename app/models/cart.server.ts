import { z } from "zod";
import { findProducts, type Product } from "~/models/catalog.server";
import { MAX_LINE_QUANTITY, applyCartChange, type CartItem } from "~/lib/cart";
import { decimalInteger } from "~/lib/forms";

/**
 * The cart's rules against the catalogue. The cart itself lives in a signed
 * cookie (utils/cart-session.server.ts) and holds product ids and quantities
 * only; prices always come from the catalogue.
 */

export const cartItemsSchema = z
  .array(
    z.object({
      productId: z.string().min(1).max(64),
      quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
    }),
  )
  .max(50);

/** What a plain (no-JS) form post leaves for the next page: the popup, or a message. */
export type CartFlash = { kind: "added"; productId: string; quantity: number } | { kind: "error"; message: string };

export type CartLine = { product: Product; quantity: number };

/**
 * Joins the cookie's items with the catalogue; a product no longer sold
 * (archived, or gone) drops out here and is listed by the cart's price
 * instead (`unavailable`), to be removed before checkout.
 */
export async function loadCartLines(items: CartItem[]): Promise<CartLine[]> {
  if (items.length === 0) return [];
  const products = new Map((await findProducts(items.map((item) => item.productId))).map((product) => [product.id, product]));
  return items.flatMap((item) => {
    const product = products.get(item.productId);
    return product?.forSale ? [{ product, quantity: item.quantity }] : [];
  });
}

const productId = z.string({ required_error: "Choose a product." }).trim().min(1, "Choose a product.").max(64);
const quantity = (min: number) =>
  decimalInteger("Quantity must be a whole number.").pipe(
    z.number().min(min, `Quantity must be between 1 and ${MAX_LINE_QUANTITY}.`).max(MAX_LINE_QUANTITY, `Quantity must be between 1 and ${MAX_LINE_QUANTITY}.`),
  );

const restoreItems = z
  .string()
  .max(4000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "The saved cart could not be read." });
      return z.NEVER;
    }
  })
  .pipe(z.array(z.unknown()).max(50, "The saved cart is too large."));

export const cartFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("add"), productId, quantity: quantity(1).default("1") }),
    // Updating to 0 or less removes the line (requirements §5), so only the top is bounded.
    z.object({ intent: z.literal("update"), productId, quantity: quantity(-MAX_LINE_QUANTITY) }),
    z.object({ intent: z.literal("remove"), productId }),
    z.object({ intent: z.literal("clear") }),
    z.object({ intent: z.literal("restore"), items: restoreItems }),
  ],
  { errorMap: () => ({ message: "Unknown cart action." }) },
);

export type CartForm = z.infer<typeof cartFormSchema>;

export type CartUpdate = { ok: true; items: CartItem[]; added?: CartFlash } | { ok: false; error: string };

/** Applies one submitted cart form to the current items, checking products against the catalogue. */
export async function updateCart(items: CartItem[], form: CartForm): Promise<CartUpdate> {
  if (form.intent === "restore") {
    // The browser's copy is only a convenience: keep what is still valid, drop the rest.
    if (items.length > 0) return { ok: true, items };
    const candidates = form.items.flatMap((raw) => {
      const parsed = cartItemsSchema.element.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    });
    const known = new Set((await findProducts(candidates.map((item) => item.productId))).filter((p) => p.forSale).map((p) => p.id));
    const restored = new Map<string, number>();
    for (const item of candidates) {
      if (!known.has(item.productId)) continue;
      const merged = Math.min(MAX_LINE_QUANTITY, (restored.get(item.productId) ?? 0) + item.quantity);
      restored.set(item.productId, merged);
    }
    return { ok: true, items: [...restored].map(([productId, quantity]) => ({ productId, quantity })) };
  }

  if (form.intent === "add" || form.intent === "update") {
    const [product] = await findProducts([form.productId]);
    if (!product) return { ok: false, error: "Sorry, we couldn't find that product." };
    const current = items.find((item) => item.productId === form.productId)?.quantity;
    // Archived by the owner: none of it can be added; a line already in the cart may only go.
    if (!product.forSale && (form.intent === "add" || form.quantity > (current ?? 0))) {
      return { ok: false, error: `${product.name} is no longer sold.` };
    }
    if (form.intent === "update" && current === undefined) {
      return { ok: false, error: `${product.name} is not in your cart.` };
    }
    // Sold out: nothing more of it, whether added or stepped up; fewer, or none, is always fine.
    const grows = form.intent === "add" || form.quantity > (current ?? 0);
    if (!product.inStock && grows) {
      return { ok: false, error: `${product.name} is sold out.` };
    }
  }

  const result = applyCartChange(items, form);
  if (!result.ok) return result;
  return {
    ...result,
    added: form.intent === "add" ? { kind: "added", productId: form.productId, quantity: form.quantity } : undefined,
  };
}

/** The cart without its sold-out lines, and the names of what was taken out. */
export async function removeSoldOut(items: CartItem[]) {
  const soldOut = new Map(
    (await findProducts(items.map((item) => item.productId))).filter((product) => !product.inStock).map((product) => [product.id, product.name]),
  );
  return { items: items.filter((item) => !soldOut.has(item.productId)), removed: [...soldOut.values()] };
}
