import { json, type ActionFunctionArgs } from "@remix-run/node";
import { productsForAdmin } from "~/models/products.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction } from "~/utils/api.server";

/** The owner's catalogue: {} → { products } (requirements §3's fields, price in dollars, each with its change history). */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-products", request, async () => {
    await requireAdmin(request, "products.manage");
    return json({ products: await productsForAdmin() }, { headers: { "Cache-Control": "no-store" } });
  });
}
