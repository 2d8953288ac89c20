import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { REFUND_REASON_MAX, refundOrder, type RefundResult } from "~/models/refunds.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";

export const bodySchema = z
  .object({
    orderId: z.string({ required_error: "is required" }).uuid("is not an order id"),
    reason: z
      .string({ required_error: "is required", invalid_type_error: "must be a string" })
      .trim()
      .min(3, "is required (at least 3 characters)")
      .max(REFUND_REASON_MAX, `must be at most ${REFUND_REASON_MAX} characters`),
  })
  .strict();

/**
 * The owner only: { orderId, reason } → { message, alreadyRefunded }. A full
 * refund through Stripe, once: a second call answers 200 saying so and
 * changes nothing (decision 023). When Stripe's answer does not come, nobody
 * knows yet whether it refunded: 202 with `pending: true`, and the shop asks
 * Stripe again until it knows; a call while it is pending answers the same
 * and asks Stripe nothing (decision 042).
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("refund-order", request, async () => {
    const admin = await requireAdmin(request, "orders.refund");
    const { orderId, reason } = await readJsonBody(request, bodySchema);
    const result = await refundOrder({ orderId, reason, actorEmail: admin.email });
    const headers = { "Cache-Control": "no-store" };
    if (result.ok && result.outcome === "pending") return json({ message: result.message, alreadyRefunded: false, pending: true }, { status: 202, headers });
    if (result.ok) return json({ message: result.message, alreadyRefunded: result.outcome === "already-refunded" }, { headers });
    return refundRefusal(result.reason);
  });
}

/** Why a refund was not made, as the dashboard shows it (refund-order and cancel-order). */
export function refundRefusal(reason: Extract<RefundResult, { ok: false }>["reason"]) {
  switch (reason) {
    case "not-found":
      return apiError(404, "No order with that id.");
    case "not-paid":
      return apiError(409, "Only a paid order can be refunded.");
    case "no-charge":
      return apiError(409, "This order cost the customer nothing ($0.00), so there is no payment to refund.");
    case "no-payment":
      return apiError(409, "This order has no card payment at Stripe to refund.");
    case "refunded-at-stripe":
      return apiError(409, "Stripe says this payment is already refunded; the order will show it as soon as Stripe's notice arrives.");
    case "payment-provider":
      return apiError(502, "Stripe could not make the refund just now. Nothing was changed; please try again in a moment.");
  }
}
