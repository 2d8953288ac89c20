import { json, type ActionFunctionArgs } from "@remix-run/node";
import { listSubscribers, subscribersQuerySchema } from "~/models/owner-lists.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";

/** Owners only: a page of newsletter subscribers, unsubscribed ones marked. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-subscribers", request, async () => {
    await requireAdmin(request, "lists.view");
    const query = await readJsonBody(request, subscribersQuerySchema);
    return json(await listSubscribers(query), { headers: { "Cache-Control": "no-store" } });
  });
}
