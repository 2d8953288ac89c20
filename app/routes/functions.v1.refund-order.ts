import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { previewRefund, REFUND_REASON_MAX, refundOrder, type RefundResult } from "~/models/refunds.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, parseJson, readJsonBody } from "~/utils/api.server";

const orderId = z.string({ required_error: "is required" }).uuid("is not an order id");

const amount = z
  .number({ invalid_type_error: "must be a number of dollars" })
  // A figure with at most 2 decimals comes back unchanged from a round trip through cents.
  .refine((dollars) => Number.isFinite(dollars) && Math.abs(centsToDollars(dollarsToCents(dollars)) - dollars) < 1e-8, "can have at most 2 decimals")
  .refine((dollars) => dollars >= 0.01, "must be at least $0.01");

const lines = z
  .array(
    z
      .object({
        itemId: z.number({ required_error: "is required", invalid_type_error: "must be a line id" }).int().positive(),
        quantity: z.number({ required_error: "is required", invalid_type_error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").max(1_000),
      })
      .strict(),
  )
  .min(1, "choose at least one line")
  .max(100);

/** What to refund: the rest (neither), an amount, or chosen lines, whose stock may go back. */
const what = { amount: amount.optional(), lines: lines.optional(), restock: z.boolean({ invalid_type_error: "must be true or false" }).optional() };

const oneWay = <T extends { amount?: number; lines?: unknown[]; restock?: boolean }>(body: T, context: z.RefinementCtx) => {
  if (body.amount !== undefined && body.lines !== undefined) context.addIssue({ code: "custom", path: ["amount"], message: "send an amount or lines, not both" });
  if (body.restock && body.amount !== undefined) {
    context.addIssue({ code: "custom", path: ["restock"], message: "restocks chosen lines (or the whole rest): send lines to restock, not an amount" });
  }
};

/** { orderId, reason }: what cancel-order takes, and what every refund starts from. */
export const reasonSchema = z
  .object({
    orderId,
    reason: z
      .string({ required_error: "is required", invalid_type_error: "must be a string" })
      .trim()
      .min(3, "is required (at least 3 characters)")
      .max(REFUND_REASON_MAX, `must be at most ${REFUND_REASON_MAX} characters`),
  })
  .strict();

const bodySchema = reasonSchema.extend(what).superRefine(oneWay);

/** The dialog's question before the owner confirms: what would this refund give back? No reason needed, no money moves. */
const previewSchema = z
  .object({ orderId, preview: z.literal(true), reason: z.string().optional(), ...what })
  .strict()
  .superRefine(oneWay);

/**
 * The owner only: { orderId, reason, amount?, lines?, restock? } → { message,
 * alreadyRefunded, refunded, amount }. Without `amount` or `lines`, the rest of
 * the order; `amount` in dollars, up to what is left; `lines`
 * ([{ itemId, quantity }]) at their share of what the customer paid for the
 * items; `restock` gives the lines' stock back (all the order's with the
 * rest). Each refund is made once at Stripe (its own idempotency key): the
 * same call again after an order is refunded answers 200 saying so and
 * changes nothing (decisions 023, 066). When Stripe's answer does not come,
 * nobody knows yet whether it refunded: 202 with `pending: true`, and the
 * shop asks Stripe again until it knows; a call while it is pending answers
 * the same and asks Stripe nothing (decision 042). With `preview: true`:
 * { amount, refunded, total, left } or 409 with why, and nothing is done.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("refund-order", request, async () => {
    const admin = await requireAdmin(request, "orders.refund");
    const raw = await readJsonBody(request, z.record(z.unknown()));
    const headers = { "Cache-Control": "no-store" };
    if (raw.preview === true) {
      const body = parseJson(previewSchema, raw);
      const preview = await previewRefund(body.orderId, { amountCents: body.amount === undefined ? undefined : dollarsToCents(body.amount), lines: body.lines });
      if (!preview) return apiError(404, "No order with that id.");
      if (!preview.plan.ok) return apiError(409, preview.plan.message);
      return json(
        {
          amount: centsToDollars(preview.plan.amountCents),
          refunded: centsToDollars(preview.refundedCents),
          total: centsToDollars(preview.totalCents),
          left: centsToDollars(preview.plan.leftCents),
        },
        { headers },
      );
    }
    const body = parseJson(bodySchema, raw);
    const result = await refundOrder({
      orderId: body.orderId,
      reason: body.reason,
      actorEmail: admin.email,
      amountCents: body.amount === undefined ? undefined : dollarsToCents(body.amount),
      lines: body.lines,
      restock: body.restock,
    });
    if (result.ok && result.outcome === "pending") return json({ message: result.message, alreadyRefunded: false, pending: true }, { status: 202, headers });
    if (result.ok) return json({ message: result.message, alreadyRefunded: result.outcome === "already-refunded" }, { headers });
    return refundRefusal(result);
  });
}

/** Why a refund was not made, as the dashboard shows it (refund-order and cancel-order). */
export function refundRefusal(result: Extract<RefundResult, { ok: false }>) {
  switch (result.reason) {
    case "not-found":
      return apiError(404, "No order with that id.");
    case "not-paid":
      return apiError(409, "Only a paid order can be refunded.");
    case "no-charge":
      return apiError(409, "This order cost the customer nothing ($0.00), so there is no payment to refund.");
    case "no-payment":
      return apiError(409, "This order has no card payment at Stripe to refund.");
    case "refunded-at-stripe":
      return apiError(409, "Stripe says this payment is already refunded; the order will show it as soon as Stripe's notice arrives.");
    case "not-refundable":
      return apiError(409, result.message);
    case "refused-by-stripe":
      return apiError(409, `Stripe refused the refund: ${result.message}`);
    case "payment-provider":
      return apiError(502, "Stripe could not make the refund just now. Nothing was changed; please try again in a moment.");
  }
}
