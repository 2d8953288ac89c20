import { json, type ActionFunctionArgs } from "@remix-run/node";
import Stripe from "stripe";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/lib/api.server";
import { verifyPayment } from "~/orders.server";
import { describeStripeError } from "~/payments.server";

const bodySchema = z.object({
  sessionId: z.string({ required_error: "is required" }).regex(/^cs_[A-Za-z0-9_]{1,200}$/, "is not a Checkout Session id"),
});

/** { sessionId } → { verified, orderId }: a paid session fulfils its order (once). */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("verify-payment", request, async () => {
    const { sessionId } = await readJsonBody(request, bodySchema);
    try {
      return json(await verifyPayment(sessionId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
        return json({ verified: false, orderId: null });
      }
      console.error(`verify-payment for ${sessionId} failed: ${describeStripeError(error)}`);
      return apiError(502, "Could not reach the payment provider. Please try again.");
    }
  });
}

export const loader = () => apiError(405, "Use POST.");
