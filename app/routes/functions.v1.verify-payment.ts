import { json, type ActionFunctionArgs } from "@remix-run/node";
import Stripe from "stripe";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { verifyPayment } from "~/models/orders.server";
import { CHECKOUT_SESSION_ID } from "~/services/stripe.server";
import { describeError } from "~/utils/errors.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  sessionId: z.string({ required_error: "is required" }).regex(CHECKOUT_SESSION_ID, "is not a Checkout Session id"),
});

/**
 * { sessionId } → { verified, orderId }: a paid session fulfils its order (once).
 * Each call may ask Stripe, so it is rate limited per address ("verify", shared
 * with /order-success).
 */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("verify-payment", request, async () => {
    await enforceRateLimit("verify", context.clientAddress);
    const { sessionId } = await readJsonBody(request, bodySchema);
    try {
      return json(await verifyPayment(sessionId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
        return json({ verified: false, orderId: null });
      }
      // Briefly: a database error's full message would print the query's arguments.
      console.error(`verify-payment for ${sessionId} failed: ${describeError(error)}`);
      if (!(error instanceof Stripe.errors.StripeError)) return apiError(500, "Something went wrong. Please try again.");
      return apiError(502, "Could not reach the payment provider. Please try again.");
    }
  });
}
