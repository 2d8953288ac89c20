import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { HONEYPOT_FIELD } from "~/lib/forms";
import { partnershipMessages } from "~/lib/messages";
import { describePartnershipErrors, partnershipSchema } from "~/lib/partnership-form";
import { submitInquiry } from "~/models/partnership.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  name: z.string().max(1000).optional(),
  email: z.string().max(1000).optional(),
  business: z.string().max(1000).nullable().optional(),
  message: z.string().max(20_000).optional(),
  [HONEYPOT_FIELD]: z.string().max(200).optional(),
});

/** { name, email, business, message } → stored and emailed to the team. */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("send-partnership-inquiry", request, async () => {
    await enforceRateLimit("partnership", context.clientAddress);
    const body = await readJsonBody(request, bodySchema);
    if (body[HONEYPOT_FIELD]) return json({ ok: true, message: partnershipMessages.sent.description });
    const parsed = partnershipSchema.safeParse({ ...body, business: body.business ?? undefined });
    if (!parsed.success) {
      const { message, fieldErrors } = describePartnershipErrors(parsed.error);
      return apiError(400, message.description, { title: message.title, fieldErrors });
    }
    await submitInquiry(parsed.data);
    return json({ ok: true, message: partnershipMessages.sent.description });
  });
}
