import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { DISCOUNT_CODE_MAX_LENGTH } from "~/lib/discount-code";
import { centsToDollars } from "~/lib/money";
import { canonicalMailbox, emailSchema } from "~/lib/email";
import { checkDiscountCode } from "~/models/pricing.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  code: z.string({ required_error: "is required" }).max(DISCOUNT_CODE_MAX_LENGTH, "is too long"),
  email: z.string({ required_error: "is required" }),
  /** The cart, when the caller has one: a code's conditions (its minimum, bars or bites only) are then judged on it. */
  items: z
    .array(z.object({ productId: z.string().min(1).max(64), quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY) }))
    .max(50)
    .optional(),
});

/**
 * { code, email, items? } → { valid, discount (a fraction, percent codes), description, error }
 * (requirements §7), plus the code's kind, amountOff and minimumSubtotal (dollars or null) and
 * appliesTo (decision 053). With `items`, a cart that does not meet the code's conditions is
 * answered valid: false with the reason ("Spend $40.00 or more to use SAVE5").
 */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("validate-discount-code", request, async () => {
    await enforceRateLimit("discount", context.clientAddress);
    const body = await readJsonBody(request, bodySchema);
    const email = emailSchema.safeParse(body.email);
    if (!email.success) return apiError(400, `email: ${email.error.issues[0]?.message}`);
    const result = await checkDiscountCode(body.code, canonicalMailbox(email.data), { items: body.items });
    if (!result.ok) return json({ valid: false, discount: 0, description: null, error: result.error });
    const { discount } = result;
    return json({
      valid: true,
      code: discount.code,
      discount: discount.kind === "percent" ? discount.basisPoints / 10000 : 0,
      description: discount.description,
      error: null,
      kind: discount.kind,
      amountOff: discount.amountOffCents === null ? null : centsToDollars(discount.amountOffCents),
      minimumSubtotal: discount.minimumSubtotalCents === null ? null : centsToDollars(discount.minimumSubtotalCents),
      appliesTo: discount.appliesTo,
    });
  });
}
