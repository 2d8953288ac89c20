import type { CartItem } from "~/lib/cart";
import type { AllergyLabel } from "~/lib/product-facts";
import type { DeliveryCheck } from "~/models/delivery.server";
import { describeCartProblem, freeShippingHint, priceOrder, type AppliedDiscount } from "~/models/pricing.server";

/** Every figure of the order summary, as the server decided it. */
export type CheckoutSummary = {
  lines: { id: string; name: string; image: string; priceCents: number; quantity: number; lineTotalCents: number; allergy: AllergyLabel | null }[];
  subtotalCents: number;
  discountCode: string | null;
  discountCents: number;
  /** Why the applied code gives nothing on this cart as it is now (its minimum, the lines it covers). */
  discountProblem: string | null;
  shippingCents: number;
  /** Shipping is free because of the code. */
  shippingWaived: boolean;
  totalCents: number;
  minimumCents: number;
  remainingCents: number;
  zoneMinimumCents: number | null;
  zoneRemainingCents: number;
  /** Lines the customer must remove before ordering: their products are sold out. */
  soldOut: { id: string; name: string; image: string; quantity: number }[];
  /** "Add $X.XX for free shipping" while shipping is charged, else null. */
  freeShippingHint: string | null;
  /** What stops the cart as it is (a product sold out, too many of one), in words. */
  cartProblem: string | null;
};

/**
 * The order summary for this cart, code and delivery zone, which every answer
 * of the checkout page carries: the page renders it and computes no money.
 */
export async function summarize(
  cartItems: CartItem[],
  { discount, delivery }: { discount: AppliedDiscount | null; delivery: DeliveryCheck | null },
): Promise<CheckoutSummary> {
  const { price, problem, soldOut } = await priceOrder(cartItems, discount, delivery?.ok ? delivery.zone : null);
  return {
    lines: price.lines.map(({ product, quantity, lineTotalCents }) => ({
      id: product.id,
      name: product.name,
      image: product.image,
      priceCents: product.priceCents,
      quantity,
      lineTotalCents,
      allergy: product.allergy,
    })),
    subtotalCents: price.subtotalCents,
    discountCode: price.discount?.code ?? null,
    discountCents: price.discountCents,
    discountProblem: price.discountProblem,
    shippingCents: price.shippingCents,
    shippingWaived: price.shippingWaived,
    totalCents: price.totalCents,
    minimumCents: price.minimumCents,
    remainingCents: price.remainingCents,
    zoneMinimumCents: price.zoneMinimumCents,
    zoneRemainingCents: price.zoneRemainingCents,
    soldOut: soldOut.map(({ product, quantity }) => ({ id: product.id, name: product.name, image: product.image, quantity })),
    freeShippingHint: freeShippingHint(price),
    cartProblem: problem ? describeCartProblem(problem) : null,
  };
}
