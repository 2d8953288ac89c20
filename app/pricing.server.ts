import { db } from "~/db.server";
import { findProducts, type Product } from "~/catalog.server";
import { MINIMUM_ORDER_CENTS, discountCentsFor, shippingFor } from "~/lib/cart";

/**
 * Money rules of DESIGN.md §5, in integer cents, for the checkout page and
 * the /functions/v1 endpoints alike. Prices always come from the catalogue.
 */

export function normalizeCode(code: string) {
  return code.trim().toUpperCase();
}

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

export type AppliedDiscount = { code: string; basisPoints: number; description: string; firstOrderOnly?: boolean };
export type DiscountCheck = ({ valid: true } & AppliedDiscount) | { valid: false; error: string };

export async function checkDiscountCode(rawCode: string, email: string): Promise<DiscountCheck> {
  const code = normalizeCode(rawCode);
  if (!code) return { valid: false, error: "Please enter a discount code." };
  const discount = await db.discountCode.findUnique({ where: { code } });
  if (!discount || !discount.active) return { valid: false, error: `"${code}" is not a valid discount code.` };
  if (discount.usageLimit !== null && discount.timesUsed >= discount.usageLimit) {
    return { valid: false, error: `"${code}" has already been used as often as it can be.` };
  }
  if (discount.firstOrderOnly && (await hasPaidOrder(email))) {
    return { valid: false, error: `"${code}" is for first-time customers only.` };
  }
  return {
    valid: true,
    code,
    basisPoints: discount.basisPoints,
    description: discount.description,
    firstOrderOnly: discount.firstOrderOnly,
  };
}

async function hasPaidOrder(email: string) {
  const paid = await db.order.count({ where: { email: normalizeEmail(email), paymentStatus: "paid" } });
  return paid > 0;
}

export type PricedLine = { product: Product; quantity: number; lineTotalCents: number };

export type OrderPrice = {
  lines: PricedLine[];
  subtotalCents: number;
  discount: AppliedDiscount | null;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  meetsMinimum: boolean;
  remainingCents: number;
};

export class UnknownProductError extends Error {
  constructor(public readonly productIds: string[]) {
    super(`Unknown products: ${productIds.join(", ")}`);
  }
}

/**
 * Prices cart items against the catalogue. Lines for the same product are
 * merged; a product that does not exist or is out of stock is refused.
 * Quantities are bounded by the callers' schemas (1-99 a line).
 */
export async function priceOrder(
  items: { productId: string; quantity: number }[],
  discount: AppliedDiscount | null,
): Promise<OrderPrice> {
  const quantities = new Map<string, number>();
  for (const item of items) quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
  const products = new Map((await findProducts([...quantities.keys()])).map((product) => [product.id, product]));
  const unknown = [...quantities.keys()].filter((id) => !products.get(id)?.inStock);
  if (unknown.length > 0) throw new UnknownProductError(unknown);

  const lines = [...quantities].map(([productId, quantity]) => {
    const product = products.get(productId)!;
    return { product, quantity, lineTotalCents: product.priceCents * quantity };
  });
  const subtotalCents = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const discountCents = discount ? discountCentsFor(subtotalCents, discount.basisPoints) : 0;
  const shippingCents = shippingFor(subtotalCents);
  return {
    lines,
    subtotalCents,
    discount,
    discountCents,
    shippingCents,
    totalCents: subtotalCents - discountCents + shippingCents,
    meetsMinimum: subtotalCents >= MINIMUM_ORDER_CENTS,
    remainingCents: Math.max(0, MINIMUM_ORDER_CENTS - subtotalCents),
  };
}
