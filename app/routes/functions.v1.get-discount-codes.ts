import { json, type ActionFunctionArgs } from "@remix-run/node";
import { listDiscountCodes } from "~/models/discount-codes.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction } from "~/utils/api.server";

/** The owner's codes: {} → { codes }, each with its uses (paid orders) and reserved (unpaid orders in flight). */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-discount-codes", request, async () => {
    await requireAdmin(request, "discount-codes.manage");
    return json({ codes: await listDiscountCodes() }, { headers: { "Cache-Control": "no-store" } });
  });
}
