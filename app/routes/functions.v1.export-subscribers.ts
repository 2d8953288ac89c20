import type { ActionFunctionArgs } from "@remix-run/node";
import { subscribersCsv, subscribersExportSchema } from "~/models/owner-lists.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";
import { csvResponse } from "~/utils/csv-response.server";

/** Owners only: the subscribers matching the list's filters, as a streamed CSV file. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("export-subscribers", request, async () => {
    await requireAdmin(request, "lists.view");
    const filters = await readJsonBody(request, subscribersExportSchema);
    return csvResponse("chillpb-subscribers", subscribersCsv(filters));
  });
}
