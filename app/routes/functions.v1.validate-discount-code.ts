import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { DISCOUNT_CODE_MAX_LENGTH } from "~/lib/discount-code";
import { canonicalMailbox, emailSchema } from "~/lib/email";
import { checkDiscountCode } from "~/models/pricing.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  code: z.string({ required_error: "is required" }).max(DISCOUNT_CODE_MAX_LENGTH, "is too long"),
  email: z.string({ required_error: "is required" }),
});

/** { code, email } → { valid, discount (a fraction), description, error } (spec §7). */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("validate-discount-code", request, async () => {
    await enforceRateLimit("discount", context.clientAddress);
    const body = await readJsonBody(request, bodySchema);
    const email = emailSchema.safeParse(body.email);
    if (!email.success) return apiError(400, `email: ${email.error.issues[0]?.message}`);
    const result = await checkDiscountCode(body.code, canonicalMailbox(email.data));
    if (!result.ok) return json({ valid: false, discount: 0, description: null, error: result.error });
    const { discount } = result;
    return json({ valid: true, code: discount.code, discount: discount.basisPoints / 10000, description: discount.description, error: null });
  });
}

export const loader = () => apiError(405, "Use POST.");
