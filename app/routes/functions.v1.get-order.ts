import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getOrderWithHistory } from "~/models/admin-orders.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";

const bodySchema = z.object({ orderId: z.string({ required_error: "is required" }).uuid("is not an order id") });

/** Signed-in admins only: one order, masked, with its status history. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-order", request, async () => {
    await requireAdmin(request);
    const { orderId } = await readJsonBody(request, bodySchema);
    const order = await getOrderWithHistory(orderId);
    if (!order) return apiError(404, "No order with that id.");
    return json({ order }, { headers: { "Cache-Control": "no-store" } });
  });
}
