import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { isEmailAddress } from "~/lib/email";
import { publicOrigin } from "~/utils/origin.server";
import { subscribe } from "~/models/newsletter.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  email: z.string({ required_error: "is required" }).max(254, "is too long"),
  website: z.string().max(200).optional(),
});

/** { email } → signs up for the newsletter; the welcome email goes out once per address. */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("send-welcome-email", request, async () => {
    await enforceRateLimit("newsletter", context.clientAddress);
    const body = await readJsonBody(request, bodySchema);
    if (body.website) return json({ ok: true });
    const email = body.email.trim();
    if (!email) return apiError(400, "Please enter your email address.");
    if (!isEmailAddress(email)) return apiError(400, "Please enter a valid email address.");
    await subscribe(email, publicOrigin());
    return json({ ok: true });
  });
}

export const loader = () => apiError(405, "Use POST.");
