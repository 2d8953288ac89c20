import { json, type ActionFunctionArgs } from "@remix-run/node";
import { inquiriesQuerySchema, listInquiries } from "~/models/owner-lists.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";

/** Owners only: a page of partnership inquiries. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-inquiries", request, async () => {
    await requireAdmin(request, "lists.view");
    const query = await readJsonBody(request, inquiriesQuerySchema);
    return json(await listInquiries(query), { headers: { "Cache-Control": "no-store" } });
  });
}
