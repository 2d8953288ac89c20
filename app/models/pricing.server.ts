import { db } from "~/utils/db.server";
import { productsAndSettings, type Product } from "~/models/catalog.server";
import { reportError } from "~/services/error-reports.server";
import { MAX_LINE_QUANTITY, type CartItem } from "~/lib/cart";
import { codeNotUnderstood, type DiscountScope } from "~/lib/discount-code";
import { centsOff, storedOfferOf, storedScopeOf, waivesShipping, type StoredOffer } from "~/models/discount-kinds.server";
import { formatCents } from "~/lib/money";
import { zoneNamed, type ShopSettings, type ZoneTerms } from "~/lib/shop-settings";
import { TAKEN_PAYMENT_STATUSES } from "~/lib/orders";

/**
 * The money rules of docs/architecture.md §5, in integer cents: the one place that
 * decides every figure a customer sees or pays, for the cart drawer, the
 * checkout page, the /functions/v1 endpoints, the Stripe session and the
 * emails alike. Prices come from the catalogue and the terms (fees,
 * thresholds, minimums, zones) from the owner's settings, read together;
 * codes are percentages, amounts or free shipping (decisions 052, 053). The
 * browser only renders what this returns.
 */

export function normalizeCode(code: string) {
  return code.trim().toUpperCase();
}

export const CODE_EXPIRED = "This code has expired.";

/** A code as it applies: its kind and figures (models/discount-kinds.server.ts), and its conditions. */
export type AppliedDiscount = StoredOffer & {
  code: string;
  /** The covered lines must come to this much for the code to apply. */
  minimumSubtotalCents: number | null;
  appliesTo: DiscountScope;
  description: string;
  firstOrderOnly: boolean;
};
/**
 * Why a code does not apply: `used-up` is a code that did apply until other
 * orders took its last use; `condition` a cart that does not meet the code's
 * minimum or holds nothing it covers.
 */
export type DiscountRefusal = "invalid" | "used-up" | "condition";

export type DiscountCheck = { ok: true; discount: AppliedDiscount } | { ok: false; code: string; error: string; reason: DiscountRefusal };

/**
 * Whether `rawCode` applies for this customer now. `mailbox` is the canonical
 * mailbox (app/lib/email.ts) or null when no valid email is known yet.
 * `holdsUse`: the customer's own order, still payable, holds one of the
 * code's uses (perhaps its last), so that use counts as theirs. With `items`
 * the code's conditions are judged on that cart too.
 */
export async function checkDiscountCode(
  rawCode: string,
  mailbox: string | null,
  { holdsUse = false, items }: { holdsUse?: boolean; items?: CartItem[] } = {},
): Promise<DiscountCheck> {
  const code = normalizeCode(rawCode);
  const refuse = (error: string, reason: DiscountRefusal = "invalid"): DiscountCheck => ({ ok: false, code, error, reason });
  if (!code) return refuse("Please enter a discount code.");
  const discount = await db.discountCode.findUnique({ where: { code } });
  if (!discount || !discount.active) return refuse(`"${code}" is not a valid discount code.`);
  if (discount.expiresAt !== null && discount.expiresAt <= new Date()) return refuse(CODE_EXPIRED);
  if (discount.startsAt !== null && discount.startsAt > new Date()) return refuse(`"${code}" is not valid yet.`);
  if (discount.usageLimit !== null && discount.usesHeld - (holdsUse ? 1 : 0) >= discount.usageLimit) {
    return refuse(`"${code}" has already been used as often as it can be.`, "used-up");
  }
  if (discount.firstOrderOnly) {
    if (!mailbox) return refuse(`Enter your email first: "${code}" is for first-time customers.`);
    if (await hasPaidOrder(mailbox)) return refuse(`"${code}" is for first-time customers only.`);
  }
  let offer: StoredOffer;
  let appliesTo: DiscountScope;
  try {
    offer = storedOfferOf(discount);
    appliesTo = storedScopeOf(discount);
  } catch (error) {
    // Written by a newer version (a rolling restart) or by hand: refused until this instance is replaced, and said where it shows.
    console.error(error instanceof Error ? error.message : error);
    reportError(error, { source: "payment" });
    return refuse(codeNotUnderstood(code));
  }
  const applied: AppliedDiscount = {
    ...offer,
    code,
    minimumSubtotalCents: discount.minimumSubtotalCents,
    appliesTo,
    description: discount.description,
    firstOrderOnly: discount.firstOrderOnly,
  };
  if (items) {
    const { products } = await productsAndSettings(items.map((item) => item.productId));
    const byId = new Map(products.map((product) => [product.id, product]));
    const lines = items.flatMap(({ productId, quantity }) => {
      const product = byId.get(productId);
      return product?.inStock ? [{ product, lineTotalCents: lineTotalCents(product.priceCents, quantity) }] : [];
    });
    const unmet = unmetCondition(applied, lines);
    if (unmet) return refuse(unmet, "condition");
  }
  return { ok: true, discount: applied };
}

const SCOPE_WORDS: Record<Exclude<DiscountScope, "all">, { some: string; one: string }> = {
  bars: { some: "bars", one: "a bar" },
  bites: { some: "bites", one: "a pack of bites" },
};

/** The subtotal of the lines a code covers. */
export function coveredSubtotalCents(lines: { product: Pick<Product, "category">; lineTotalCents: number }[], appliesTo: DiscountScope) {
  return lines.filter((line) => appliesTo === "all" || line.product.category === appliesTo).reduce((sum, line) => sum + line.lineTotalCents, 0);
}

/** Why this cart does not meet the code's conditions, in the customer's words; null when it does. */
export function unmetCondition(discount: AppliedDiscount, lines: { product: Pick<Product, "category">; lineTotalCents: number }[]): string | null {
  const covered = coveredSubtotalCents(lines, discount.appliesTo);
  const scope = discount.appliesTo === "all" ? null : SCOPE_WORDS[discount.appliesTo];
  if (scope && covered === 0) return `${discount.code} is for ${scope.some}: add ${scope.one} to use it.`;
  if (discount.minimumSubtotalCents !== null && covered < discount.minimumSubtotalCents) {
    return `Spend ${formatCents(discount.minimumSubtotalCents)} or more${scope ? ` on ${scope.some}` : ""} to use ${discount.code}.`;
  }
  return null;
}

/** A refunded order was still a first order: its customer is not a first-time customer again. */
async function hasPaidOrder(mailbox: string) {
  return (await db.order.count({ where: { mailbox, paymentStatus: { in: [...TAKEN_PAYMENT_STATUSES] } } })) > 0;
}

/** The fee and the free-shipping threshold that apply: the zone's own once it is known and has them, else the shop's. */
export function shippingTerms(settings: ShopSettings, zone: ZoneTerms | null) {
  return {
    feeCents: zone?.shippingFeeCents ?? settings.shippingFeeCents,
    freeFromCents: zone?.freeShippingThresholdCents ?? settings.freeShippingThresholdCents,
  };
}

/** What pricing reads of a product: its price, and its category for codes that cover bars or bites only. */
type Priceable = Pick<Product, "priceCents" | "category">;

/** A line's total: the one rule every line figure uses, in the engine and for an order's stored lines (emails, pages). */
export function lineTotalCents(unitPriceCents: number, quantity: number) {
  return unitPriceCents * quantity;
}

/**
 * What giving back `quantity` of a paid order's line returns to the customer
 * (a refund of chosen lines, decision 066): that part of the line's total less
 * its share of the order's discount, spread over the lines by price. Shipping
 * is never in it: it comes back only with the rest of the order.
 */
export function lineRefundCents(order: { subtotalCents: number; discountCents: number }, unitPriceCents: number, quantity: number) {
  if (order.subtotalCents <= 0) return 0;
  return Math.round((lineTotalCents(unitPriceCents, quantity) * (order.subtotalCents - order.discountCents)) / order.subtotalCents);
}

export type PricedLine<P extends Priceable = Product> = { product: P; quantity: number; lineTotalCents: number };

/** Everything the order summary shows, decided here. */
export type OrderPrice<P extends Priceable = Product> = {
  lines: PricedLine<P>[];
  subtotalCents: number;
  /** The code as applied; null when there is none, or when this cart does not meet its conditions (`discountProblem`). */
  discount: AppliedDiscount | null;
  discountCents: number;
  /** Why the code given does not apply to this cart, in words. */
  discountProblem: string | null;
  shippingCents: number;
  /** Shipping is free because of the code (a free-shipping code), not the threshold. */
  shippingWaived: boolean;
  totalCents: number;
  /** The shop's minimum order, and what is still missing to reach it (0 once met). */
  minimumCents: number;
  remainingCents: number;
  meetsMinimum: boolean;
  /** The delivery zone's minimum once the zone is known, and what is missing to reach it. */
  zoneMinimumCents: number | null;
  zoneRemainingCents: number;
  /** What is missing for free shipping (0 once it is free). */
  freeShippingRemainingCents: number;
};

/**
 * Prices lines that are already merged and checked, on these terms and, once
 * the address is checked, its zone. Pure: the rules at every boundary are
 * unit-tested, and their sums property-tested (pricing.server.property.test.ts).
 */
export function priceLines<P extends Priceable>(
  lines: { product: P; quantity: number }[],
  offered: AppliedDiscount | null,
  { settings, zone = null }: { settings: ShopSettings; zone?: ZoneTerms | null },
): OrderPrice<P> {
  const priced = lines.map(({ product, quantity }) => ({ product, quantity, lineTotalCents: lineTotalCents(product.priceCents, quantity) }));
  const subtotalCents = priced.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const discountProblem = offered ? unmetCondition(offered, priced) : null;
  const discount = discountProblem ? null : offered;
  const coveredCents = discount ? coveredSubtotalCents(priced, discount.appliesTo) : 0;
  const discountCents = discount ? centsOff(discount, coveredCents) : 0;
  const { feeCents, freeFromCents } = shippingTerms(settings, zone);
  const shippingWaived = discount !== null && waivesShipping(discount);
  const shippingCents = shippingWaived || subtotalCents >= freeFromCents ? 0 : feeCents;
  const zoneMinimumCents = zone?.minimumOrderCents ?? null;
  return {
    lines: priced,
    subtotalCents,
    discount,
    discountCents,
    discountProblem,
    shippingCents,
    shippingWaived,
    totalCents: subtotalCents - discountCents + shippingCents,
    minimumCents: settings.minimumOrderCents,
    remainingCents: Math.max(0, settings.minimumOrderCents - subtotalCents),
    meetsMinimum: subtotalCents >= settings.minimumOrderCents,
    zoneMinimumCents,
    zoneRemainingCents: zoneMinimumCents === null ? 0 : Math.max(0, zoneMinimumCents - subtotalCents),
    freeShippingRemainingCents: shippingCents === 0 ? 0 : Math.max(0, freeFromCents - subtotalCents),
  };
}

/**
 * "Add $X.XX for free shipping" while an order pays for shipping; null once
 * shipping is free, and for an order with nothing to ship, which has its own
 * message. The drawer and the checkout's summary both show these words.
 */
export function freeShippingHint(price: OrderPrice<Priceable>): string | null {
  if (price.subtotalCents <= 0 || price.shippingCents === 0) return null;
  return `Add ${formatCents(price.freeShippingRemainingCents)} for free shipping`;
}

/** Why a cart cannot be ordered as it is. `unavailable`: products no longer sold, by name where the shop still knows it (archived ones). */
export type CartProblem =
  { problem: "unavailable"; productNames: string[] } | { problem: "sold-out"; productNames: string[] } | { problem: "too-many"; productName: string };

const tooManyOfOneProduct = (name: string) => `You can order up to ${MAX_LINE_QUANTITY} of one product at a time (${name}). Please lower the quantity.`;

export function describeCartProblem(problem: CartProblem) {
  if (problem.problem === "too-many") return tooManyOfOneProduct(problem.productName);
  if (problem.problem === "sold-out") {
    return `${problem.productNames.join(", ")} ${problem.productNames.length === 1 ? "is" : "are"} sold out. Please remove ${problem.productNames.length === 1 ? "it" : "them"} from your cart.`;
  }
  if (problem.productNames.length > 0) {
    const one = problem.productNames.length === 1;
    return `${problem.productNames.join(", ")} ${one ? "is" : "are"} no longer sold. Please remove ${one ? "it" : "them"} from your cart.`;
  }
  // A product no longer in the catalogue at all: there is no name left to say.
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
  /** The delivery zone's name once the address is checked. */
  zoneName: string | null = null,
): Promise<{
  price: OrderPrice;
  problem: CartProblem | null;
  soldOut: { product: Product; quantity: number }[];
  /** Lines whose product is no longer sold: archived by the owner (named), or gone from the catalogue (no name). */
  gone: (CartItem & { name: string | null })[];
}> {
  const quantities = new Map<string, number>();
  for (const item of items) quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
  const catalogue = await productsAndSettings([...quantities.keys()]);
  const products = new Map(catalogue.products.map((product) => [product.id, product]));

  const lines = [...quantities].flatMap(([productId, quantity]) => {
    const product = products.get(productId);
    return product?.inStock ? [{ product, quantity }] : [];
  });
  const gone = [...quantities].flatMap(([productId, quantity]) => {
    const product = products.get(productId);
    return product?.forSale ? [] : [{ productId, quantity, name: product?.name ?? null }];
  });
  const soldOut = [...quantities].flatMap(([productId, quantity]) => {
    const product = products.get(productId);
    return product?.forSale && !product.inStock ? [{ product, quantity }] : [];
  });
  const tooMany = lines.find((line) => line.quantity > MAX_LINE_QUANTITY);
  const problem: CartProblem | null =
    gone.length > 0
      ? { problem: "unavailable", productNames: gone.flatMap((line) => (line.name === null ? [] : [line.name])) }
      : soldOut.length > 0
        ? { problem: "sold-out", productNames: soldOut.map((line) => line.product.name) }
        : tooMany
          ? { problem: "too-many", productName: tooMany.product.name }
          : null;
  const price = priceLines(lines, discount, { settings: catalogue.settings, zone: zoneNamed(catalogue.settings, zoneName) });
  return { price, problem, soldOut, gone };
}

/** A cart line that cannot be bought as it is: its product is sold out, or no longer sold (archived, named; or gone from the catalogue, no name left). */
export type UnavailableLine = { productId: string; name: string | null; quantity: number; reason: "sold-out" | "gone" };

/**
 * Every figure the cart drawer shows, decided here as the checkout's are (no
 * code, no zone yet): the drawer renders these and computes no money.
 */
export type CartPrice = {
  /** The lines that can be bought, priced; the unavailable ones are in no figure. */
  lines: { productId: string; quantity: number; lineTotalCents: number }[];
  unavailable: UnavailableLine[];
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  minimumCents: number;
  remainingCents: number;
  meetsMinimum: boolean;
  freeShippingRemainingCents: number;
  freeShippingHint: string | null;
  /** Why the cart cannot go to the checkout besides the minimum, in words; null when nothing stops it. */
  checkoutBlocked: string | null;
};

/**
 * The drawer's figures for the cart's items, for the root loader (every page)
 * and each /cart answer; null for an empty cart, which shows no figures.
 */
export async function priceCart(items: CartItem[]): Promise<CartPrice | null> {
  if (items.length === 0) return null;
  const { price, problem, soldOut, gone } = await priceOrder(items, null);
  return {
    lines: price.lines.map(({ product, quantity, lineTotalCents }) => ({ productId: product.id, quantity, lineTotalCents })),
    unavailable: [
      ...soldOut.map(({ product, quantity }) => ({ productId: product.id, name: product.name, quantity, reason: "sold-out" as const })),
      ...gone.map(({ productId, quantity, name }) => ({ productId, name, quantity, reason: "gone" as const })),
    ],
    subtotalCents: price.subtotalCents,
    shippingCents: price.shippingCents,
    totalCents: price.totalCents,
    minimumCents: price.minimumCents,
    remainingCents: price.remainingCents,
    meetsMinimum: price.meetsMinimum,
    freeShippingRemainingCents: price.freeShippingRemainingCents,
    freeShippingHint: freeShippingHint(price),
    checkoutBlocked: problem ? checkoutBlockedBy(problem) : null,
  };
}

/** The drawer's short reason beside its disabled Checkout button. */
function checkoutBlockedBy(problem: CartProblem) {
  if (problem.problem === "unavailable") return "Remove the items we no longer sell to check out";
  if (problem.problem === "sold-out") return "Remove sold-out items to check out";
  return tooManyOfOneProduct(problem.productName);
}
