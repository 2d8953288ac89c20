import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { resendEmail } from "~/models/system.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonForm } from "~/utils/api.server";

const bodySchema = z.object({ id: z.string({ required_error: "is required", invalid_type_error: "must be text" }).uuid("must be an email's id") });

/**
 * { id } → { message, id }: queues one new copy of a sent or dead email, once
 * (decision 054); 404 for an unknown id, 409 for an email still waiting, one
 * withdrawn, or one resent already.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("resend-email", request, async () => {
    const admin = await requireAdmin(request, "system.manage");
    const { id } = await readJsonForm(request, bodySchema);
    const resent = await resendEmail(admin.email, id);
    if (!resent.ok) return apiError(resent.status, resent.error);
    return json({ message: "The email is queued again.", id: resent.id }, { headers: { "Cache-Control": "no-store" } });
  });
}
