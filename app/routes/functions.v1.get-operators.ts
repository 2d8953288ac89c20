import { json, type ActionFunctionArgs } from "@remix-run/node";
import { listOperators } from "~/models/operators.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction } from "~/utils/api.server";

/** Owners only: every operator account with its role and when it was last used. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-operators", request, async () => {
    await requireAdmin(request, "operators.manage");
    return json({ operators: await listOperators() }, { headers: { "Cache-Control": "no-store" } });
  });
}
