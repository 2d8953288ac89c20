import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ORDER_STATUSES, OrderNotFoundError, OrderNotPaidError, updateOrderStatus } from "~/admin-orders.server";
import { requireAdmin } from "~/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/lib/api.server";

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
    try {
      return json(await updateOrderStatus(orderId, newStatus, admin.email));
    } catch (error) {
      if (error instanceof OrderNotFoundError) return apiError(404, "No order with that id.");
      if (error instanceof OrderNotPaidError) return apiError(409, "This order has not been paid, so it cannot be fulfilled.");
      throw error;
    }
  });
}

export const loader = () => apiError(405, "Use POST.");
