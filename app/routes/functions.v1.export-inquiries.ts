import type { ActionFunctionArgs } from "@remix-run/node";
import { inquiriesCsv, inquiriesExportSchema } from "~/models/owner-lists.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";
import { csvResponse } from "~/utils/csv-response.server";

/** Owners only: the partnership inquiries matching the list's search, as a streamed CSV file. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("export-inquiries", request, async () => {
    await requireAdmin(request, "lists.view");
    const filters = await readJsonBody(request, inquiriesExportSchema);
    return csvResponse("chillpb-partnership-inquiries", inquiriesCsv(filters));
  });
}
