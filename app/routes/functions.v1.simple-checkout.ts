import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { shippingSchema } from "~/lib/checkout-form";
import { apiError, handleFunction, readJsonBody } from "~/lib/api.server";
import { publicOrigin } from "~/lib/origin.server";
import { CheckoutProblem, placeOrder } from "~/orders.server";
import { enforceRateLimit } from "~/rate-limit.server";

/**
 * The spec's request body (§7). Whatever prices, names or amounts the client
 * sends are ignored: only product ids and quantities are read, and the total
 * is computed from the catalogue.
 */
const bodySchema = z.object({
  items: z
    .array(
      z.object({
        product: z.object({ id: z.string().min(1).max(64) }).passthrough(),
        quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
      }),
    )
    .min(1, "must hold at least one item")
    .max(50),
  shipping: shippingSchema,
  email: z.string().max(254).optional(),
  discountCode: z.string().max(64).nullable().optional(),
  discountAmount: z.number().optional(),
});

export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("simple-checkout", request, async () => {
    await enforceRateLimit("checkout", context.clientAddress);
    const body = await readJsonBody(request, bodySchema);
    try {
      const { url, orderId } = await placeOrder({
        items: body.items.map((item) => ({ productId: item.product.id, quantity: item.quantity })),
        shipping: body.shipping,
        discountCode: body.discountCode ?? null,
        origin: publicOrigin(request),
      });
      return json({ url, orderId });
    } catch (error) {
      if (error instanceof CheckoutProblem) {
        return apiError(error.status, error.problem.description, { title: error.problem.title, delivery: error.delivery });
      }
      throw error;
    }
  });
}

export const loader = () => apiError(405, "Use POST.");
