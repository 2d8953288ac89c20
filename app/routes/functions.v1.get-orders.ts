import { json, type ActionFunctionArgs } from "@remix-run/node";
import { listOrders, ordersQuerySchema } from "~/models/admin-orders.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";

/** Signed-in admins only: a page of paid orders, masked (requirements §6-§7). */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-orders", request, async () => {
    await requireAdmin(request);
    const query = await readJsonBody(request, ordersQuerySchema);
    return json(await listOrders(query), { headers: { "Cache-Control": "no-store" } });
  });
}
