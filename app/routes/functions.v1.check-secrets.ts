import { json, type ActionFunctionArgs } from "@remix-run/node";
import { env } from "~/utils/env.server";
import { handleFunction } from "~/utils/api.server";
import { stripeConfigured, webhookSecret } from "~/services/stripe.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

/** Which integrations are configured, as booleans: never a value (requirements §7). Rate limited per address. */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("check-secrets", request, async () => {
    if (request.method !== "POST") return json({ error: "Use POST." }, { status: 405 });
    await enforceRateLimit("check-secrets", context.clientAddress);
    return json({
      stripe: stripeConfigured(),
      stripeWebhook: Boolean(webhookSecret()),
      email: Boolean(env.SMTP_URL),
      geocoder: Boolean(env.GEOCODER_URL),
      mocks: env.MOCKS,
    });
  });
}
