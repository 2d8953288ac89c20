import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { auditTrail } from "~/models/audit.server";
import { productJson, setArchived } from "~/models/products.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonForm } from "~/utils/api.server";

const bodySchema = z.object({
  productId: z.string({ required_error: "is required", invalid_type_error: "must be text" }).min(1, "is required").max(64),
  archived: z.boolean({ invalid_type_error: "must be true or false" }).default(true),
});

/**
 * { productId, archived? } → { message, product }, the owner's only
 * (decision 065). `archived` (default true) takes the product off the shop:
 * it leaves the shop, the landing page and the sitemap, its page says it is
 * no longer sold, carts holding it must remove it, and orders keep it.
 * `archived: false` puts it back on sale. Asking for what already is answers
 * 200 and says so; an unknown id is 404.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("archive-product", request, async () => {
    const admin = await requireAdmin(request, "products.manage");
    const body = await readJsonForm(request, bodySchema);
    const result = await setArchived(admin.email, body.productId, body.archived);
    if (!result.ok) return apiError(404, "No product with that id.");
    const { product, changed } = result;
    const message = body.archived
      ? changed
        ? `${product.name} is archived: it is no longer on the shop.`
        : `${product.name} is already archived.`
      : changed
        ? `${product.name} is back on the shop.`
        : `${product.name} is already on the shop.`;
    return json({ message, product: productJson(product, await auditTrail("product", product.id, 20)) });
  });
}
