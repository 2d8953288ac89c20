import type { CartItem } from "~/lib/cart";
import type { AllergyLabel } from "~/lib/product-facts";
import type { DeliveryCheck } from "~/models/delivery.server";
import { describeCartProblem, freeShippingHint, priceOrder, type AppliedDiscount, type OrderPrice } from "~/models/pricing.server";

/** The order's figures as pricing decided them (OrderPrice), each once: the summary carries them as they are. */
type Figures = Omit<OrderPrice, "lines" | "discount" | "meetsMinimum" | "freeShippingRemainingCents">;

/** Every figure of the order summary, as the server decided it. */
export type CheckoutSummary = Figures & {
  lines: { id: string; name: string; image: string; priceCents: number; quantity: number; lineTotalCents: number; allergy: AllergyLabel | null }[];
  discountCode: string | null;
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
  const { lines, discount: applied, meetsMinimum: _meets, freeShippingRemainingCents: _remaining, ...figures } = price;
  return {
    ...figures,
    lines: lines.map(({ product, quantity, lineTotalCents }) => ({
      id: product.id,
      name: product.name,
      image: product.image,
      priceCents: product.priceCents,
      quantity,
      lineTotalCents,
      allergy: product.allergy,
    })),
    discountCode: applied?.code ?? null,
    soldOut: soldOut.map(({ product, quantity }) => ({ id: product.id, name: product.name, image: product.image, quantity })),
    freeShippingHint: freeShippingHint(price),
    cartProblem: problem ? describeCartProblem(problem) : null,
  };
}
