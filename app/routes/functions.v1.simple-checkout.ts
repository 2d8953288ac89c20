import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { shippingSchema } from "~/lib/checkout-form";
import { DELIVERY_PROBLEMS } from "~/lib/delivery-zones";
import { DISCOUNT_CODE_MAX_LENGTH } from "~/lib/discount-code";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { publicOrigin } from "~/utils/origin.server";
import type { DeliveryCheck } from "~/models/delivery.server";
import { placeOrder, type CheckoutRefusal } from "~/models/orders.server";
import type { OrderPrice } from "~/models/pricing.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

/**
 * The spec's request body (§7). Every figure is computed from the catalogue;
 * what the client showed is only compared with it. A unit price
 * (`product.price`) or a `discountAmount` the client sends, both in dollars,
 * must match ours: a client that shows one price is never charged another
 * (409 with our figures instead). Both stay optional, as the spec's body has
 * them; a line sent without a price is priced by the shop alone.
 */
const bodySchema = z.object({
  items: z
    .array(
      z.object({
        product: z.object({ id: z.string().min(1).max(64), price: z.number().nonnegative().finite().optional() }).passthrough(),
        quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
      }),
    )
    .min(1, "must hold at least one item")
    .max(50),
  shipping: shippingSchema,
  email: z.string().max(EMAIL_MAX_LENGTH).optional(),
  discountCode: z.string().max(DISCOUNT_CODE_MAX_LENGTH).nullable().optional(),
  discountAmount: z.number().nonnegative().optional(),
});

const statusFor: Record<CheckoutRefusal, number> = {
  "invalid-code": 400,
  "code-unavailable": 409,
  cart: 400,
  minimum: 400,
  "outside-area": 400,
  "zone-minimum": 400,
  "total-changed": 409,
  "out-of-stock": 409,
  "payment-provider": 502,
  "in-progress": 409,
};

/** The delivery check as requirements §3 answers it: the minimum in dollars, an `error` when the address could not be checked. */
function deliveryJson(delivery: DeliveryCheck) {
  if (delivery.ok) {
    return { isWithinRange: true, distance: delivery.miles, deliveryZone: delivery.zone, minimumOrder: centsToDollars(delivery.minimumCents) };
  }
  if (delivery.reason === "outside-area") {
    return { isWithinRange: false, distance: delivery.miles, deliveryZone: "no-delivery", minimumOrder: 0 };
  }
  return { isWithinRange: false, distance: null, deliveryZone: "no-delivery", minimumOrder: 0, error: DELIVERY_PROBLEMS[delivery.reason] };
}

type BodyItem = z.infer<typeof bodySchema>["items"][number];

/**
 * The shop's figures in dollars, for a client to show instead of its own:
 * each line as the client sent it with the product's current unit price, and
 * the order's discount, subtotal, shipping and total.
 */
function figuresJson(price: OrderPrice, sent: BodyItem[]) {
  const current = new Map(price.lines.map((line) => [line.product.id, line.product.priceCents]));
  return {
    items: sent.flatMap((item) => {
      const priceCents = current.get(item.product.id);
      return priceCents === undefined ? [] : [{ product: { id: item.product.id, price: centsToDollars(priceCents) }, quantity: item.quantity }];
    }),
    discountAmount: centsToDollars(price.discountCents),
    subtotal: centsToDollars(price.subtotalCents),
    shippingCost: centsToDollars(price.shippingCents),
    total: centsToDollars(price.totalCents),
  };
}

export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("simple-checkout", request, async () => {
    await enforceRateLimit("checkout", context.clientAddress);
    const body = await readJsonBody(request, bodySchema);
    const placed = await placeOrder({
      items: body.items.map((item) => ({ productId: item.product.id, quantity: item.quantity })),
      shipping: body.shipping,
      discountCode: body.discountCode ?? null,
      origin: publicOrigin(),
      expectedDiscountCents: body.discountAmount === undefined ? undefined : dollarsToCents(body.discountAmount),
      expectedUnitPrices: body.items.flatMap(({ product }) =>
        product.price === undefined ? [] : [{ productId: product.id, unitPriceCents: dollarsToCents(product.price) }],
      ),
    });
    if (placed.ok) return json({ url: placed.url, orderId: placed.orderId });
    return apiError(statusFor[placed.refusal], placed.message.description, {
      title: placed.message.title,
      delivery: placed.delivery && deliveryJson(placed.delivery),
      ...(placed.price && figuresJson(placed.price, body.items)),
    });
  });
}
