import { json, type ActionFunctionArgs } from "@remix-run/node";
import { dashboardStats } from "~/admin-orders.server";
import { requireAdmin } from "~/auth.server";
import { apiError, handleFunction } from "~/lib/api.server";

/** Signed-in admins only: today's orders and revenue, and orders per day for 30 days. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-dashboard", request, async () => {
    await requireAdmin(request);
    return json(await dashboardStats(), { headers: { "Cache-Control": "no-store" } });
  });
}

export const loader = () => apiError(405, "Use POST.");
