import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { updateOrderStatus } from "~/models/admin-orders.server";
import { FULFILMENT_STATUSES } from "~/lib/orders";
import { checkTracking } from "~/lib/tracking";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";

const optionalText = z.string({ invalid_type_error: "must be a string" }).max(200, "is too long").nullable().optional();

const bodySchema = z
  .object({
    orderId: z.string({ required_error: "is required" }).uuid("is not an order id"),
    // Cancelling is cancel-order's (it refunds first): not a status to move an order to.
    newStatus: z.enum(FULFILMENT_STATUSES, {
      errorMap: () => ({ message: `must be one of ${FULFILMENT_STATUSES.join(", ")}` }),
    }),
    trackingNumber: optionalText,
    carrier: optionalText,
  })
  .transform((body, ctx) => {
    const given = Boolean(body.trackingNumber?.trim() || body.carrier?.trim());
    if (given && body.newStatus !== "shipped") {
      const field = body.trackingNumber?.trim() ? "trackingNumber" : "carrier";
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: 'is only given with newStatus "shipped"' });
      return z.NEVER;
    }
    const tracking = checkTracking(body);
    if (!tracking.ok) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [tracking.field], message: tracking.error });
      return z.NEVER;
    }
    const { carrier, trackingNumber } = tracking;
    return { orderId: body.orderId, newStatus: body.newStatus, tracking: given ? { carrier, trackingNumber } : null };
  });

/**
 * Signed-in admins only: { orderId, newStatus, trackingNumber?, carrier? } →
 * { message } (requirements §7; tracking with "shipped" only, decision 027).
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("update-order-status", request, async () => {
    const admin = await requireAdmin(request, "orders.update-status");
    const { orderId, newStatus, tracking } = await readJsonBody(request, bodySchema);
    const update = await updateOrderStatus(orderId, newStatus, admin.email, tracking);
    if (update.ok) return json({ message: update.message });
    if (update.reason === "not-found") return apiError(404, "No order with that id.");
    if (update.reason === "refunded") return apiError(409, "This order was refunded, so it is no longer fulfilled.");
    if (update.reason === "cancelled") return apiError(409, "This order was cancelled, so it is no longer fulfilled.");
    return apiError(409, "This order has not been paid, so it cannot be fulfilled.");
  });
}
