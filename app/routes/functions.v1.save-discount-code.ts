import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  DISCOUNT_CODE_MAX_LENGTH,
  DISCOUNT_CODE_MIN_LENGTH,
  DISCOUNT_CODE_PATTERN,
  DISCOUNT_KINDS,
  DISCOUNT_SCOPES,
} from "~/lib/discount-code";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { saveDiscountCode } from "~/models/discount-codes.server";
import { normalizeCode } from "~/models/pricing.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonForm } from "~/utils/api.server";

const CODE_LENGTH = `Code must be ${DISCOUNT_CODE_MIN_LENGTH} to ${DISCOUNT_CODE_MAX_LENGTH} characters`;

const flag = (label: string) =>
  z.boolean({
    required_error: `${label} is required`,
    invalid_type_error: `${label} must be true or false`,
  });

const bodySchema = z
  .object({
    code: z
      .string({
        required_error: "Code is required",
        invalid_type_error: "Code must be text",
      })
      .transform(normalizeCode)
      .pipe(
        z
          .string()
          .min(DISCOUNT_CODE_MIN_LENGTH, CODE_LENGTH)
          .max(DISCOUNT_CODE_MAX_LENGTH, CODE_LENGTH)
          .regex(
            DISCOUNT_CODE_PATTERN,
            "Code may hold only letters, digits and single dashes between them"
          )
      ),
    kind: z
      .enum(DISCOUNT_KINDS, {
        errorMap: () => ({
          message: `Kind must be one of ${DISCOUNT_KINDS.join(", ")}`,
        }),
      })
      .default("percent"),
    percentOff: z
      .number({ invalid_type_error: "Percent off must be a number" })
      .int("Percent off must be a whole number")
      .min(1, "Percent off must be between 1 and 100")
      .max(100, "Percent off must be between 1 and 100")
      .optional(),
    amountOff: dollars("Amount off").nullable().optional(),
    minimumSubtotal: dollars("Minimum subtotal").nullable().optional(),
    appliesTo: z
      .enum(DISCOUNT_SCOPES, {
        errorMap: () => ({
          message: `Applies to must be one of ${DISCOUNT_SCOPES.join(", ")}`,
        }),
      })
      .default("all"),
    startsAt: z
      .string({ invalid_type_error: "Start must be a date and time" })
      .datetime({
        offset: true,
        message:
          "Start must be an ISO date and time, like 2026-12-01T08:00:00Z",
      })
      .transform((value) => new Date(value))
      .nullable()
      .optional(),
    description: z
      .string({
        required_error: "Description is required",
        invalid_type_error: "Description must be text",
      })
      .trim()
      .min(1, "Description cannot be empty")
      .max(120, "Description can be at most 120 characters"),
    active: flag("Active"),
    firstOrderOnly: flag("First order only"),
    usageLimit: z
      .number({ invalid_type_error: "Usage limit must be a number or empty" })
      .int("Usage limit must be a whole number")
      .min(1, "Usage limit must be at least 1 (leave it empty for no limit)")
      .max(1_000_000, "Usage limit can be at most 1,000,000")
      .nullable()
      .optional(),
    expiresAt: z
      .string({ invalid_type_error: "Expiry must be a date and time" })
      .datetime({
        offset: true,
        message:
          "Expiry must be an ISO date and time, like 2026-12-31T23:59:00Z",
      })
      .transform((value) => new Date(value))
      .nullable()
      .optional(),
    /** The admin's "New code": refuse a code that exists (409) instead of updating it. */
    create: z
      .boolean({ invalid_type_error: "Create must be true or false" })
      .optional(),
  })
  .superRefine((body, context) => {
    if (body.kind === "percent" && body.percentOff === undefined)
      context.addIssue({
        code: "custom",
        path: ["percentOff"],
        message: "Percent off is required",
      });
    if (
      body.kind === "amount" &&
      (body.amountOff === undefined ||
        body.amountOff === null ||
        body.amountOff === 0)
    ) {
      context.addIssue({
        code: "custom",
        path: ["amountOff"],
        message: "Amount off is required, more than $0.00",
      });
    }
    if (body.startsAt && body.expiresAt && body.startsAt >= body.expiresAt) {
      context.addIssue({
        code: "custom",
        path: ["startsAt"],
        message: "Start must be before the expiry",
      });
    }
  });

/** Dollars with at most 2 decimals, 0 to $1,000, as integer cents. */
function dollars(label: string) {
  return z
    .number({ invalid_type_error: `${label} must be a number of dollars` })
    .refine(
      (value) =>
        Number.isFinite(value) &&
        Math.abs(centsToDollars(dollarsToCents(value)) - value) < 1e-8,
      `${label} can have at most 2 decimals`
    )
    .refine(
      (value) => value >= 0 && value <= 1_000,
      `${label} must be between $0.00 and $1,000.00`
    )
    .transform(dollarsToCents);
}

/**
 * { code, kind?, percentOff | amountOff, minimumSubtotal?, appliesTo?, startsAt?, description,
 * active, firstOrderOnly, usageLimit?, expiresAt? } → { message, code }: creates the code or
 * updates it (upsert by code). `kind` is "percent" (the default: `percentOff` 1-100),
 * "amount" (`amountOff` dollars) or "free-shipping"; `appliesTo` "all" (default), "bars" or
 * "bites"; `minimumSubtotal` (dollars of the covered lines) and `startsAt` null for none
 * (decision 053).
 * `usageLimit` and `expiresAt` null mean none; left out, an existing code
 * keeps its own (a new one has none), so a client that does not know them
 * cannot wipe them. With `create: true` only a new code is made: one that
 * exists answers 409 with the field error on `code`.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("save-discount-code", request, async () => {
    const admin = await requireAdmin(request, "discount-codes.manage");
    const { create, percentOff, amountOff, minimumSubtotal, ...terms } =
      await readJsonForm(request, bodySchema);
    const saved = await saveDiscountCode(
      admin.email,
      {
        ...terms,
        percentOff: percentOff ?? 0,
        amountOffCents: amountOff ?? null,
        minimumSubtotalCents: minimumSubtotal ?? null,
      },
      { createOnly: create === true }
    );
    if (!saved.ok)
      return apiError(
        saved.field === "code" ? 409 : 400,
        `${saved.field}: ${saved.error}`,
        { fieldErrors: { [saved.field]: saved.error } }
      );
    return json({
      message: `${saved.code.code} ${saved.created ? "created" : "saved"}.`,
      code: saved.code,
    });
  });
}
