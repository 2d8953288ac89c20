import { z } from "zod";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { DISCOUNT_CODE_MAX_LENGTH, DISCOUNT_CODE_MIN_LENGTH, DISCOUNT_CODE_PATTERN, DISCOUNT_SCOPES } from "~/lib/discount-code";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { listDiscountCodes, saveDiscountCode } from "~/models/discount-codes.server";
import { offerBodySchema, storeOffer } from "~/models/discount-kinds.server";
import { normalizeCode, priceOrder, type AppliedDiscount } from "~/models/pricing.server";
import { apiError } from "~/utils/api.server";
import { defineFunction } from "./define.server";

const CODE_LENGTH = `Code must be ${DISCOUNT_CODE_MIN_LENGTH} to ${DISCOUNT_CODE_MAX_LENGTH} characters`;

/** An optional moment as the owner's form sends it (ISO, with its offset); null for none. */
const instant = (label: string, example: string) =>
  z
    .string({ invalid_type_error: `${label} must be a date and time` })
    .datetime({ offset: true, message: `${label} must be an ISO date and time, like ${example}` })
    .transform((value) => new Date(value))
    .nullable()
    .optional();

const flag = (label: string) =>
  z.boolean({
    required_error: `${label} is required`,
    invalid_type_error: `${label} must be true or false`,
  });

/** The kind and its figures (each kind's own, models/discount-kinds.server.ts), as the row stores them. */
const offerSchema = offerBodySchema.transform((offer) => ({ offer: storeOffer(offer) }));

const termsSchema = z
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
          .regex(DISCOUNT_CODE_PATTERN, "Code may hold only letters, digits and single dashes between them"),
      ),
    minimumSubtotal: dollars("Minimum subtotal").nullable().optional(),
    appliesTo: z
      .enum(DISCOUNT_SCOPES, {
        errorMap: () => ({
          message: `Applies to must be one of ${DISCOUNT_SCOPES.join(", ")}`,
        }),
      })
      .default("all"),
    startsAt: instant("Start", "2026-12-01T08:00:00Z"),
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
    expiresAt: instant("Expiry", "2026-12-31T23:59:00Z"),
    /** The admin's "New code": refuse a code that exists (409) instead of updating it. */
    create: z.boolean({ invalid_type_error: "Create must be true or false" }).optional(),
  })
  .superRefine((body, context) => {
    if (body.startsAt && body.expiresAt && body.startsAt >= body.expiresAt) {
      context.addIssue({
        code: "custom",
        path: ["startsAt"],
        message: "Start must be before the expiry",
      });
    }
  });

const saveSchema = z.intersection(termsSchema, offerSchema);

/** Dollars with at most 2 decimals, 0 to $1,000, as integer cents. */
function dollars(label: string) {
  return z
    .number({ invalid_type_error: `${label} must be a number of dollars` })
    .refine((value) => Number.isFinite(value) && Math.abs(centsToDollars(dollarsToCents(value)) - value) < 1e-8, `${label} can have at most 2 decimals`)
    .refine((value) => value >= 0 && value <= 1_000, `${label} must be between $0.00 and $1,000.00`)
    .transform(dollarsToCents);
}

/** preview-discount-code's figures: any dollars from 0 to $1,000, as cents. */
const sampleDollars = z.number().min(0).max(1_000).transform(dollarsToCents);

const previewSchema = z.intersection(
  z.object({
    code: z
      .string()
      .trim()
      .min(1)
      .max(32)
      .default("PREVIEW")
      .transform((code) => code.toUpperCase()),
    minimumSubtotal: sampleDollars.nullable().default(null),
    appliesTo: z.enum(DISCOUNT_SCOPES).default("all"),
    /** The sample cart: any products and quantities of the catalogue. */
    items: z
      .array(
        z.object({
          productId: z.string().min(1).max(64),
          quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
        }),
      )
      .min(1, "Add a product to the sample cart")
      .max(20),
    /** A zone's name, to see its fee and threshold; null for the shop-wide ones. */
    zone: z.string().max(30).nullable().default(null),
  }),
  offerSchema,
);

/** A code's terms, as the examples of save- and preview-discount-code send them. */
const SPRING_TERMS = { code: "SPRING-15", kind: "percent", percentOff: 15, minimumSubtotal: null, appliesTo: "all" } as const;

/** The owner's discount codes (decisions 022, 026, 053): listed, saved, and tried on a sample cart. */
export const discountCodeFunctions = {
  /** The owner's codes: {} → { codes }, each with its uses (paid orders) and reserved (unpaid orders in flight). */
  "get-discount-codes": defineFunction({
    access: "discount-codes.manage",
    run: async () => ({ codes: await listDiscountCodes() }),
  }),

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
  "save-discount-code": defineFunction({
    access: "discount-codes.manage",
    body: saveSchema,
    example: {
      ...SPRING_TERMS,
      startsAt: null,
      description: "15% off this spring",
      active: true,
      firstOrderOnly: false,
      usageLimit: 100,
      expiresAt: null,
    },
    async run({ body: { create, minimumSubtotal, ...terms }, admin }) {
      const saved = await saveDiscountCode(admin.email, { ...terms, minimumSubtotalCents: minimumSubtotal ?? null }, { createOnly: create === true });
      if (!saved.ok) return apiError(saved.field === "code" ? 409 : 400, `${saved.field}: ${saved.error}`, { fieldErrors: { [saved.field]: saved.error } });
      return {
        message: `${saved.code.code} ${saved.created ? "created" : "saved"}.`,
        code: saved.code,
      };
    },
  }),

  /**
   * What a code's terms, saved or not, give on a sample cart (the admin's code
   * form, decision 053): the pricing engine's own figures, in dollars, and why
   * the cart does not meet the code's conditions when it does not. The admin
   * shows these; it computes no money.
   */
  "preview-discount-code": defineFunction({
    access: "discount-codes.manage",
    body: previewSchema,
    example: {
      ...SPRING_TERMS,
      items: [{ productId: "bar-chocolate-pb", quantity: 2 }],
      zone: null,
    },
    async run({ body }) {
      const discount: AppliedDiscount = {
        ...body.offer,
        code: body.code,
        minimumSubtotalCents: body.minimumSubtotal,
        appliesTo: body.appliesTo,
        description: "",
        firstOrderOnly: false,
      };
      const { price, problem } = await priceOrder(body.items, discount, body.zone);
      return {
        lines: price.lines.map((line) => ({
          productId: line.product.id,
          name: line.product.name,
          quantity: line.quantity,
          lineTotal: centsToDollars(line.lineTotalCents),
        })),
        subtotal: centsToDollars(price.subtotalCents),
        discount: centsToDollars(price.discountCents),
        shipping: centsToDollars(price.shippingCents),
        shippingWaived: price.shippingWaived,
        total: centsToDollars(price.totalCents),
        /** Why the code gives nothing on this cart (its minimum, the lines it covers), or null. */
        problem: price.discountProblem ?? (problem ? "Some of the sample cart's products cannot be bought now." : null),
      };
    },
  }),
};
