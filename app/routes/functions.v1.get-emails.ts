import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { EMAIL_STATUSES, listEmails } from "~/models/system.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonForm } from "~/utils/api.server";

const bodySchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
  status: z.enum(EMAIL_STATUSES).nullable().default(null),
});

/**
 * The outbox for the owner (decision 054): { page?, pageSize?, status? } →
 * { emails: [{ id, kind, to, subject, status: "pending" | "sent" | "dead",
 * attempts, lastError, createdAt, sentAt, resentAs }], total }, newest first.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-emails", request, async () => {
    await requireAdmin(request, "system.manage");
    const body = await readJsonForm(request, bodySchema);
    return json(await listEmails(body), { headers: { "Cache-Control": "no-store" } });
  });
}
