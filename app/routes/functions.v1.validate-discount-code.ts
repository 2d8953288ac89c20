import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { canonicalMailbox, isEmailAddress } from "~/lib/email";
import { checkDiscountCode } from "~/models/pricing.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  code: z.string({ required_error: "is required" }).max(64, "is too long"),
  email: z.string({ required_error: "is required" }).max(254, "is too long"),
});

/** { code, email } → { valid, discount (a fraction), description, error } (spec §7). */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("validate-discount-code", request, async () => {
    await enforceRateLimit("discount", context.clientAddress);
    const { code, email } = await readJsonBody(request, bodySchema);
    if (!isEmailAddress(email.trim())) return apiError(400, "email: Enter a valid email address");
    const result = await checkDiscountCode(code, canonicalMailbox(email));
    if (!result.ok) return json({ valid: false, discount: 0, description: null, error: result.error });
    const { discount } = result;
    return json({ valid: true, code: discount.code, discount: discount.basisPoints / 10000, description: discount.description, error: null });
  });
}

export const loader = () => apiError(405, "Use POST.");
