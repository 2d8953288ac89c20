import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { showCustomerDetails } from "~/models/admin-orders.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";

const bodySchema = z.object({ orderId: z.string({ required_error: "is required" }).uuid("is not an order id") });

/**
 * { orderId } → the order's full customer details (name, email, phone,
 * address), for the owner only; each call is recorded in the order's history.
 * Never cached: the answer is a customer's personal data.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-customer-details", request, async () => {
    const admin = await requireAdmin(request, "orders.customer-details");
    const { orderId } = await readJsonBody(request, bodySchema);
    const details = await showCustomerDetails(admin.email, orderId);
    if (!details) return apiError(404, "No order with that id.");
    return json(details, { headers: { "Cache-Control": "no-store" } });
  });
}
