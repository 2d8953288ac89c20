import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { PREPARATION_LIMIT } from "~/lib/orders";
import { getPreparation } from "~/models/preparation.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";

const bodySchema = z
  .object({
    /** With who to deliver to (the packing slips and the day sheet): the owner's, recorded in each order's history. */
    customerDetails: z.boolean({ invalid_type_error: "must be true or false" }).default(false),
    /** Only these orders (the ones the operator selected to print). */
    orderIds: z.array(z.string().uuid("is not an order id"), { invalid_type_error: "must be a list of order ids" }).max(PREPARATION_LIMIT).optional(),
  })
  .strict();

/**
 * { customerDetails?, orderIds? } → the paid orders not yet shipped, by delivery zone and
 * distance, and how many of each product to make (issue 23, item 2). Every
 * operator reads it masked; `customerDetails: true` is the owner's.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-preparation", request, async () => {
    const viewer = await requireAdmin(request, "orders.view");
    const { customerDetails, orderIds } = await readJsonBody(request, bodySchema);
    const admin = customerDetails ? await requireAdmin(request, "orders.customer-details") : viewer;
    return json(await getPreparation({ customerDetails, actorEmail: admin.email, orderIds }), { headers: { "Cache-Control": "no-store" } });
  });
}
