import { json, type ActionFunctionArgs } from "@remix-run/node";
import { cancelOrder } from "~/models/cancellation.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { reasonSchema, refundRefusal } from "./functions.v1.refund-order";

/**
 * The owner only: { orderId, reason } → { message }. The order `cancelled`,
 * refunded in full first if it was paid (one email to the customer, the
 * refund's, saying both), its stock and code use given back (decision 064).
 * Refused once it has shipped; a second call says it is already cancelled.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("cancel-order", request, async () => {
    const admin = await requireAdmin(request, "orders.refund");
    const { orderId, reason } = await readJsonBody(request, reasonSchema);
    const result = await cancelOrder({ orderId, reason, actorEmail: admin.email });
    if (result.ok) return json({ message: result.message }, { headers: { "Cache-Control": "no-store" } });
    if (result.reason === "shipped") return apiError(409, "This order has shipped, so it can no longer be cancelled. Refund it instead if the customer sends it back.");
    if (result.reason === "refund-pending") return apiError(409, "A refund of this order is already pending with Stripe; cancel it once Stripe has answered.");
    return refundRefusal(result);
  });
}
