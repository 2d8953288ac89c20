import { json, type ActionFunctionArgs } from "@remix-run/node";
import { dashboardStats } from "~/models/admin-orders.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction } from "~/utils/api.server";

/** Signed-in admins only: today's orders and revenue, and orders per day for 30 days. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-dashboard", request, async () => {
    await requireAdmin(request);
    return json(await dashboardStats(), { headers: { "Cache-Control": "no-store" } });
  });
}
