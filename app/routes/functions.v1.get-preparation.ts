import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getPreparation } from "~/models/preparation.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";

const bodySchema = z
  .object({
    /** With who to deliver to (the packing slips and the day sheet): the owner's, recorded in each order's history. */
    customerDetails: z.boolean({ invalid_type_error: "must be true or false" }).default(false),
  })
  .strict();

/**
 * { customerDetails? } → the paid orders not yet shipped, by delivery zone and
 * distance, and how many of each product to make (issue 23, item 2). Every
 * operator reads it masked; `customerDetails: true` is the owner's.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-preparation", request, async () => {
    const viewer = await requireAdmin(request, "orders.view");
    const { customerDetails } = await readJsonBody(request, bodySchema);
    const admin = customerDetails ? await requireAdmin(request, "orders.customer-details") : viewer;
    return json(await getPreparation({ customerDetails, actorEmail: admin.email }), { headers: { "Cache-Control": "no-store" } });
  });
}
