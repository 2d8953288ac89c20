import { json, type ActionFunctionArgs } from "@remix-run/node";
import { systemStatus } from "~/models/system.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction } from "~/utils/api.server";

/**
 * The owner's System page (decision 054): {} → { release, database, emails
 * (backlog, oldest waiting, dead, sent in the last day), lastWebhook, jobs }.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-system", request, async () => {
    await requireAdmin(request, "system.manage");
    return json(await systemStatus(), { headers: { "Cache-Control": "no-store" } });
  });
}
