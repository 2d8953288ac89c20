import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { emailSchema } from "~/lib/email";
import { HONEYPOT_FIELD } from "~/lib/forms";
import { messages } from "~/lib/messages";
import { publicOrigin } from "~/utils/origin.server";
import { subscribe } from "~/models/newsletter.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  email: z.string({ required_error: "is required" }),
  [HONEYPOT_FIELD]: z.string().max(200).optional(),
});

/** { email } → signs up for the newsletter; the welcome email goes out once per address. */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("send-welcome-email", request, async () => {
    await enforceRateLimit("newsletter", context.clientAddress);
    const body = await readJsonBody(request, bodySchema);
    if (body[HONEYPOT_FIELD]) return json({ ok: true });
    const email = emailSchema.safeParse(body.email);
    if (!email.success) return apiError(400, body.email.trim() ? messages.invalidEmail.description : "Please enter your email address.");
    await subscribe(email.data, publicOrigin());
    return json({ ok: true });
  });
}
