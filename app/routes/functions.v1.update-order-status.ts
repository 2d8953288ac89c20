import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { updateOrderStatus } from "~/models/admin-orders.server";
import { ORDER_STATUSES } from "~/lib/orders";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";

const bodySchema = z.object({
  orderId: z.string({ required_error: "is required" }).uuid("is not an order id"),
  newStatus: z.enum(ORDER_STATUSES, {
    errorMap: () => ({ message: `must be one of ${ORDER_STATUSES.join(", ")}` }),
  }),
});

/** Signed-in admins only: { orderId, newStatus } → { message } (spec §7). */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("update-order-status", request, async () => {
    const admin = await requireAdmin(request);
    const { orderId, newStatus } = await readJsonBody(request, bodySchema);
    const update = await updateOrderStatus(orderId, newStatus, admin.email);
    if (update.ok) return json({ message: update.message });
    if (update.reason === "not-found") return apiError(404, "No order with that id.");
    return apiError(409, "This order has not been paid, so it cannot be fulfilled.");
  });
}

export const loader = () => apiError(405, "Use POST.");
