import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { DISCOUNT_KINDS, DISCOUNT_SCOPES } from "~/lib/discount-code";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { priceOrder, type AppliedDiscount } from "~/models/pricing.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonForm } from "~/utils/api.server";

const dollars = z.number().min(0).max(1_000).transform(dollarsToCents);

const bodySchema = z.object({
  code: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .default("PREVIEW")
    .transform((code) => code.toUpperCase()),
  kind: z.enum(DISCOUNT_KINDS).default("percent"),
  percentOff: z.number().int().min(0).max(100).default(0),
  amountOff: dollars.nullable().default(null),
  minimumSubtotal: dollars.nullable().default(null),
  appliesTo: z.enum(DISCOUNT_SCOPES).default("all"),
  /** The sample cart: any products and quantities of the catalogue. */
  items: z
    .array(
      z.object({
        productId: z.string().min(1).max(64),
        quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
      })
    )
    .min(1, "Add a product to the sample cart")
    .max(20),
  /** A zone's name, to see its fee and threshold; null for the shop-wide ones. */
  zone: z.string().max(30).nullable().default(null),
});

/**
 * What a code's terms, saved or not, give on a sample cart (the admin's code
 * form, decision 053): the pricing engine's own figures, in dollars, and why
 * the cart does not meet the code's conditions when it does not. The admin
 * shows these; it computes no money.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("preview-discount-code", request, async () => {
    await requireAdmin(request, "discount-codes.manage");
    const body = await readJsonForm(request, bodySchema);
    const discount: AppliedDiscount = {
      code: body.code,
      kind: body.kind,
      basisPoints: body.kind === "percent" ? body.percentOff * 100 : 0,
      amountOffCents: body.kind === "amount" ? body.amountOff : null,
      minimumSubtotalCents: body.minimumSubtotal,
      appliesTo: body.appliesTo,
      description: "",
      firstOrderOnly: false,
    };
    const { price, problem } = await priceOrder(
      body.items,
      discount,
      body.zone
    );
    return json(
      {
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
        problem:
          price.discountProblem ??
          (problem
            ? "Some of the sample cart's products cannot be bought now."
            : null),
      },
      { headers: { "Cache-Control": "no-store" } }
    );
  });
}
