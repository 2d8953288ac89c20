import { db } from "~/utils/db.server";
import { findProducts, type Product } from "~/models/catalog.server";
import {
  FREE_SHIPPING_THRESHOLD_CENTS,
  MAX_LINE_QUANTITY,
  MINIMUM_ORDER_CENTS,
  discountCentsFor,
  shippingFor,
  type CartItem,
} from "~/lib/cart";
import { TAKEN_PAYMENT_STATUSES } from "~/lib/orders";

/**
 * The money rules of DESIGN.md §5, in integer cents: the one place that
 * decides every figure a customer sees or pays, for the checkout page, the
 * /functions/v1 endpoints and the Stripe session alike. Prices always come
 * from the catalogue; the browser only renders what this returns.
 */

export function normalizeCode(code: string) {
  return code.trim().toUpperCase();
}

export const CODE_EXPIRED = "This code has expired.";

export type AppliedDiscount = { code: string; basisPoints: number; description: string; firstOrderOnly: boolean };
export type DiscountCheck = { ok: true; discount: AppliedDiscount } | { ok: false; code: string; error: string };

/**
 * Whether `rawCode` applies for this customer now. `mailbox` is the canonical
 * mailbox (app/lib/email.ts) or null when no valid email is known yet.
 */
export async function checkDiscountCode(rawCode: string, mailbox: string | null): Promise<DiscountCheck> {
  const code = normalizeCode(rawCode);
  const refuse = (error: string): DiscountCheck => ({ ok: false, code, error });
  if (!code) return refuse("Please enter a discount code.");
  const discount = await db.discountCode.findUnique({ where: { code } });
  if (!discount || !discount.active) return refuse(`"${code}" is not a valid discount code.`);
  if (discount.expiresAt !== null && discount.expiresAt <= new Date()) return refuse(CODE_EXPIRED);
  if (discount.usageLimit !== null && discount.usesHeld >= discount.usageLimit) {
    return refuse(`"${code}" has already been used as often as it can be.`);
  }
  if (discount.firstOrderOnly) {
    if (!mailbox) return refuse(`Enter your email first: "${code}" is for first-time customers.`);
    if (await hasPaidOrder(mailbox)) return refuse(`"${code}" is for first-time customers only.`);
  }
  return {
    ok: true,
    discount: { code, basisPoints: discount.basisPoints, description: discount.description, firstOrderOnly: discount.firstOrderOnly },
  };
}

/** A refunded order was still a first order: its customer is not a first-time customer again. */
async function hasPaidOrder(mailbox: string) {
  return (await db.order.count({ where: { mailbox, paymentStatus: { in: [...TAKEN_PAYMENT_STATUSES] } } })) > 0;
}

export type PricedLine = { product: Product; quantity: number; lineTotalCents: number };

/** Everything the order summary shows, decided here. */
export type OrderPrice = {
  lines: PricedLine[];
  subtotalCents: number;
  discount: AppliedDiscount | null;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  /** The $20 minimum, and what is still missing to reach it (0 once met). */
  minimumCents: number;
  remainingCents: number;
  meetsMinimum: boolean;
  /** The delivery zone's minimum once the zone is known, and what is missing to reach it. */
  zoneMinimumCents: number | null;
  zoneRemainingCents: number;
  /** What is missing for free shipping (0 once it is free). */
  freeShippingRemainingCents: number;
};

/** Prices lines that are already merged and checked. Pure: the rules at every boundary are unit-tested. */
export function priceLines(
  lines: { product: Product; quantity: number }[],
  discount: AppliedDiscount | null,
  zoneMinimumCents: number | null = null,
): OrderPrice {
  const priced = lines.map(({ product, quantity }) => ({ product, quantity, lineTotalCents: product.priceCents * quantity }));
  const subtotalCents = priced.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const discountCents = discount ? discountCentsFor(subtotalCents, discount.basisPoints) : 0;
  const shippingCents = shippingFor(subtotalCents);
  return {
    lines: priced,
    subtotalCents,
    discount,
    discountCents,
    shippingCents,
    totalCents: subtotalCents - discountCents + shippingCents,
    minimumCents: MINIMUM_ORDER_CENTS,
    remainingCents: Math.max(0, MINIMUM_ORDER_CENTS - subtotalCents),
    meetsMinimum: subtotalCents >= MINIMUM_ORDER_CENTS,
    zoneMinimumCents,
    zoneRemainingCents: zoneMinimumCents === null ? 0 : Math.max(0, zoneMinimumCents - subtotalCents),
    freeShippingRemainingCents: Math.max(0, FREE_SHIPPING_THRESHOLD_CENTS - subtotalCents),
  };
}

/** Why a cart cannot be ordered as it is. */
export type CartProblem =
  | { problem: "unavailable" }
  | { problem: "sold-out"; productNames: string[] }
  | { problem: "too-many"; productName: string };

const tooManyOfOneProduct = (name: string) =>
  `You can order up to ${MAX_LINE_QUANTITY} of one product at a time (${name}). Please lower the quantity.`;

export function describeCartProblem(problem: CartProblem) {
  if (problem.problem === "too-many") return tooManyOfOneProduct(problem.productName);
  if (problem.problem === "sold-out") {
    return `${problem.productNames.join(", ")} ${problem.productNames.length === 1 ? "is" : "are"} sold out. Please remove ${problem.productNames.length === 1 ? "it" : "them"} from your cart.`;
  }
  // A product no longer in the catalogue: there is no name left to say.
  return "Some items in your cart are no longer available. Please review your cart.";
}

/**
 * Prices cart items against the catalogue. Lines for the same product are
 * merged first, so the per-product cap holds however the items were sent. The
 * price covers the lines that can be ordered; `problem` says what stops the
 * cart as it is (a product gone or sold out, too many of one product), and
 * `soldOut` the lines that cannot be ordered until the customer removes them.
 */
export async function priceOrder(
  items: CartItem[],
  discount: AppliedDiscount | null,
  zoneMinimumCents: number | null = null,
): Promise<{ price: OrderPrice; problem: CartProblem | null; soldOut: { product: Product; quantity: number }[] }> {
  const quantities = new Map<string, number>();
  for (const item of items) quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
  const products = new Map((await findProducts([...quantities.keys()])).map((product) => [product.id, product]));

  const lines = [...quantities].flatMap(([productId, quantity]) => {
    const product = products.get(productId);
    return product?.inStock ? [{ product, quantity }] : [];
  });
  const gone = [...quantities.keys()].filter((id) => !products.has(id));
  const soldOut = [...quantities].flatMap(([productId, quantity]) => {
    const product = products.get(productId);
    return product && !product.inStock ? [{ product, quantity }] : [];
  });
  const tooMany = lines.find((line) => line.quantity > MAX_LINE_QUANTITY);
  const problem: CartProblem | null =
    gone.length > 0
      ? { problem: "unavailable" }
      : soldOut.length > 0
        ? { problem: "sold-out", productNames: soldOut.map((line) => line.product.name) }
        : tooMany
          ? { problem: "too-many", productName: tooMany.product.name }
          : null;
  return { price: priceLines(lines, discount, zoneMinimumCents), problem, soldOut };
}
