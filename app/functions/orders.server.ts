import { z } from "zod";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { FULFILMENT_STATUSES, PREPARATION_LIMIT } from "~/lib/orders";
import { checkTracking } from "~/lib/tracking";
import {
  dashboardStats,
  getOrderWithHistory,
  givenUpQuerySchema,
  listOrders,
  ordersQuerySchema,
  showCustomerDetails,
  updateOrderStatus,
} from "~/models/admin-orders.server";
import { cancelOrder } from "~/models/cancellation.server";
import { reconcilePayments } from "~/models/orphan-orders.server";
import { getPreparation } from "~/models/preparation.server";
import { moveDelivery } from "~/models/delivery-change.server";
import { calendarDay } from "~/models/delivery-schedule.server";
import { deliveryWhen } from "~/lib/delivery-schedule";
import { previewRefund, refundOrder, type RefundResult } from "~/models/refunds.server";
import { REFUND_REASON } from "~/lib/orders";
import { apiError } from "~/utils/api.server";
import { hasPermission, OWNER_ONLY_MESSAGE } from "~/lib/operators";
import { requireAdmin } from "~/utils/auth.server";
import { answer, defineFunction } from "./define.server";
import { eitherBody } from "./schemas.server";

const orderId = z.string({ required_error: "is required" }).uuid("is not an order id");
const EXAMPLE_ORDER_ID = "7f9c2b1e-4d3a-4b8e-9f10-2a6c5d4e3b21";

const deliveryMoveSchema = z
  .object({
    orderId,
    deliveryDate: calendarDay,
    /** A window of the day (the schedule's slot id); none for the day as a whole. */
    deliverySlot: z.string({ invalid_type_error: "must be a window's id" }).max(30).nullable().optional(),
  })
  .strict();

const optionalText = z.string({ invalid_type_error: "must be a string" }).max(200, "is too long").nullable().optional();

const statusSchema = z
  .object({
    orderId,
    // Cancelling is cancel-order's (it refunds first): not a status to move an order to.
    newStatus: z.enum(FULFILMENT_STATUSES, {
      errorMap: () => ({ message: `must be one of ${FULFILMENT_STATUSES.join(", ")}` }),
    }),
    trackingNumber: optionalText,
    carrier: optionalText,
  })
  .transform((body, ctx) => {
    const given = Boolean(body.trackingNumber?.trim() || body.carrier?.trim());
    if (given && body.newStatus !== "shipped") {
      const field = body.trackingNumber?.trim() ? "trackingNumber" : "carrier";
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: 'is only given with newStatus "shipped"' });
      return z.NEVER;
    }
    const tracking = checkTracking(body);
    if (!tracking.ok) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [tracking.field], message: tracking.error });
      return z.NEVER;
    }
    const { carrier, trackingNumber } = tracking;
    return { orderId: body.orderId, newStatus: body.newStatus, tracking: given ? { carrier, trackingNumber } : null };
  });

const preparationSchema = z
  .object({
    /** With who to deliver to (the packing slips and the day sheet): the owner's, recorded in each order's history. */
    customerDetails: z.boolean({ invalid_type_error: "must be true or false" }).default(false),
    /** Only these orders (the ones the operator selected to print). */
    orderIds: z.array(z.string().uuid("is not an order id"), { invalid_type_error: "must be a list of order ids" }).max(PREPARATION_LIMIT).optional(),
    /** One delivery day's work (decision 100), "YYYY-MM-DD"; orders placed before delivery days are on every day's. */
    deliveryDate: calendarDay.optional(),
  })
  .strict();

const refundAmount = z
  .number({ invalid_type_error: "must be a number of dollars" })
  // A figure with at most 2 decimals comes back unchanged from a round trip through cents.
  .refine((dollars) => Number.isFinite(dollars) && Math.abs(centsToDollars(dollarsToCents(dollars)) - dollars) < 1e-8, "can have at most 2 decimals")
  .refine((dollars) => dollars >= 0.01, "must be at least $0.01");

const refundLines = z
  .array(
    z
      .object({
        itemId: z.number({ required_error: "is required", invalid_type_error: "must be a line id" }).int().positive(),
        quantity: z
          .number({ required_error: "is required", invalid_type_error: "must be a whole number" })
          .int("must be a whole number")
          .min(1, "must be at least 1")
          .max(1_000),
      })
      .strict(),
  )
  .min(1, "choose at least one line")
  .max(100);

/** What to refund: the rest (neither), an amount, or chosen lines, whose stock may go back. */
const what = { amount: refundAmount.optional(), lines: refundLines.optional(), restock: z.boolean({ invalid_type_error: "must be true or false" }).optional() };

const oneWay = <T extends { amount?: number; lines?: unknown[]; restock?: boolean }>(body: T, context: z.RefinementCtx) => {
  if (body.amount !== undefined && body.lines !== undefined)
    context.addIssue({ code: "custom", path: ["amount"], message: "send an amount or lines, not both" });
  if (body.restock && body.amount !== undefined) {
    context.addIssue({ code: "custom", path: ["restock"], message: "restocks chosen lines (or the whole rest): send lines to restock, not an amount" });
  }
};

/** { orderId, reason }: what cancel-order takes, and what every refund starts from. */
const reasonSchema = z
  .object({
    orderId,
    reason: z
      .string({ required_error: "is required", invalid_type_error: "must be a string" })
      .trim()
      .min(REFUND_REASON.min, `is required (at least ${REFUND_REASON.min} characters)`)
      .max(REFUND_REASON.max, `must be at most ${REFUND_REASON.max} characters`),
  })
  .strict();

/** The dialog's question before the owner confirms: what would this refund give back? No reason needed, no money moves. */
const refundPreviewSchema = z
  .object({ orderId, preview: z.literal(true), reason: z.string().optional(), ...what })
  .strict()
  .superRefine(oneWay);

const refundSchema = eitherBody((raw) => raw.preview === true, refundPreviewSchema, reasonSchema.extend(what).superRefine(oneWay));

/** Why a refund was not made, as the dashboard shows it (refund-order and cancel-order). */
function refundRefusal(result: Extract<RefundResult, { ok: false }>) {
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

/** The orders: every operator reads them masked and moves them along; refunds, cancellations and customers' details are the owner's. */
export const orderFunctions = {
  /** A page of orders, masked (requirements §6-§7). */
  "get-orders": defineFunction({
    access: "orders.view",
    body: ordersQuerySchema,
    example: { q: "ana" },
    async run({ body, admin }) {
      // Every row with its checkouts never paid is the owner's, as get-given-up-checkouts is.
      if (body.includeUnpaid && !hasPermission(admin.role, "orders.given-up")) return apiError(403, OWNER_ONLY_MESSAGE);
      return listOrders(body);
    },
  }),

  /** The checkouts given up unpaid (their page expired, or the customer cancelled or started again), masked, with what was in them: the owner's. */
  "get-given-up-checkouts": defineFunction({
    access: "orders.given-up",
    body: givenUpQuerySchema,
    example: { q: "ana" },
    run: async ({ body }) => listOrders({ ...body, payment: "given-up", includeUnpaid: false }),
  }),

  /** One order, masked, with its status history. */
  "get-order": defineFunction({
    access: "orders.view",
    body: z.object({ orderId }),
    example: { orderId: EXAMPLE_ORDER_ID },
    async run({ body }) {
      const order = await getOrderWithHistory(body.orderId);
      if (!order) return apiError(404, "No order with that id.");
      return { order };
    },
  }),

  /** { orderId, newStatus, trackingNumber?, carrier? } → { message } (requirements §7; tracking with "shipped" only, decision 027). */
  "update-order-status": defineFunction({
    access: "orders.update-status",
    body: statusSchema,
    example: { orderId: EXAMPLE_ORDER_ID, newStatus: "shipped" },
    async run({ body: { orderId, newStatus, tracking }, admin }) {
      const update = await updateOrderStatus(orderId, newStatus, admin.email, tracking);
      if (update.ok) return { message: update.message };
      if (update.reason === "not-found") return apiError(404, "No order with that id.");
      if (update.reason === "refunded") return apiError(409, "This order was refunded, so it is no longer fulfilled.");
      if (update.reason === "cancelled") return apiError(409, "This order was cancelled, so it is no longer fulfilled.");
      return apiError(409, "This order has not been paid, so it cannot be fulfilled.");
    },
  }),

  /**
   * { orderId } → the order's full customer details (name, email, phone,
   * address), for the owner only; each call is recorded in the order's history.
   */
  "get-customer-details": defineFunction({
    access: "orders.customer-details",
    body: z.object({ orderId }),
    example: { orderId: EXAMPLE_ORDER_ID },
    async run({ body, admin }) {
      const details = await showCustomerDetails(admin.email, body.orderId);
      if (!details) return apiError(404, "No order with that id.");
      return details;
    },
  }),

  /**
   * { customerDetails?, orderIds? } → the paid orders not yet shipped, by
   * delivery zone and distance, and how many of each product to make. Every
   * operator reads it masked; `customerDetails: true` is the owner's.
   */
  "get-preparation": defineFunction({
    access: "orders.view",
    body: preparationSchema,
    example: { orderIds: [EXAMPLE_ORDER_ID] },
    async run({ body: { customerDetails, orderIds, deliveryDate }, admin: viewer, request }) {
      const admin = customerDetails ? await requireAdmin(request, "orders.customer-details") : viewer;
      return getPreparation({ customerDetails, actorEmail: admin.email, orderIds, deliveryDate });
    },
  }),

  /**
   * { orderId, deliveryDate, deliverySlot? } → { message, deliveryDate, deliverySlot, warnings }:
   * moves a paid order not yet shipped to another delivery day (decision 100),
   * owner and staff alike, from today on; a day that is full, closed or not
   * served in the order's zone is allowed, and said in `warnings`. Recorded in
   * the order's history; its customer is emailed. 404 for no such order, 409
   * for one on its way or closed, or already on that day.
   */
  "update-order-delivery": defineFunction({
    access: "orders.update-status",
    body: deliveryMoveSchema,
    example: { orderId: EXAMPLE_ORDER_ID, deliveryDate: "2026-12-10", deliverySlot: null },
    async run({ body, admin }) {
      const moved = await moveDelivery(body.orderId, { date: body.deliveryDate, slot: body.deliverySlot ?? null }, { operator: admin.email });
      if (!moved.ok) return apiError(moved.status, moved.error);
      const when = deliveryWhen(moved.date, moved.slotLabel);
      const beyond = moved.warnings.length > 0 ? ` Note: ${moved.warnings.join("; ")}.` : "";
      return {
        message: `Delivery moved to ${when}; the customer is emailed.${beyond}`,
        deliveryDate: moved.date,
        deliverySlot: moved.slot,
        warnings: moved.warnings,
      };
    },
  }),

  /** Today's orders and revenue, and orders per day for 30 days. */
  "get-dashboard": defineFunction({
    access: "dashboard.view",
    run: () => dashboardStats(),
  }),

  /**
   * { orderId, reason, amount?, lines?, restock? } → { message,
   * alreadyRefunded }. Without `amount` or `lines`, the rest of the order;
   * `amount` in dollars, up to what is left; `lines` ([{ itemId, quantity }])
   * at their share of what the customer paid for the items; `restock` gives
   * the lines' stock back (all the order's with the rest). Each refund is made
   * once at Stripe (its own idempotency key): the same call again after an
   * order is refunded answers 200 saying so and changes nothing (decisions
   * 023, 066). When Stripe's answer does not come, nobody knows yet whether
   * it refunded: 202 with `pending: true`, and the shop asks Stripe again
   * until it knows; a call while it is pending answers the same and asks
   * Stripe nothing (decision 042). With `preview: true`: { amount, refunded,
   * total, left } or 409 with why, and nothing is done.
   */
  "refund-order": defineFunction({
    access: "orders.refund",
    body: refundSchema,
    example: { orderId: EXAMPLE_ORDER_ID, reason: "Asked for a refund" },
    async run({ body, admin }) {
      const amountCents = body.amount === undefined ? undefined : dollarsToCents(body.amount);
      if ("preview" in body) {
        const preview = await previewRefund(body.orderId, { amountCents, lines: body.lines });
        if (!preview) return apiError(404, "No order with that id.");
        if (!preview.plan.ok) return apiError(409, preview.plan.message);
        return {
          amount: centsToDollars(preview.plan.amountCents),
          refunded: centsToDollars(preview.refundedCents),
          total: centsToDollars(preview.totalCents),
          left: centsToDollars(preview.plan.leftCents),
        };
      }
      const result = await refundOrder({
        orderId: body.orderId,
        reason: body.reason,
        actorEmail: admin.email,
        amountCents,
        lines: body.lines,
        restock: body.restock,
      });
      if (result.ok && result.outcome === "pending") return answer({ message: result.message, alreadyRefunded: false, pending: true }, { status: 202 });
      if (result.ok) return { message: result.message, alreadyRefunded: result.outcome === "already-refunded" };
      return refundRefusal(result);
    },
  }),

  /**
   * { orderId, reason } → { message }. The order `cancelled`, refunded in
   * full first if it was paid (one email to the customer, the refund's,
   * saying both), its stock and code use given back (decision 064). Refused
   * once it has shipped; a second call says it is already cancelled.
   */
  "cancel-order": defineFunction({
    access: "orders.refund",
    body: reasonSchema,
    example: { orderId: EXAMPLE_ORDER_ID, reason: "Asked to cancel" },
    async run({ body: { orderId, reason }, admin }) {
      const result = await cancelOrder({ orderId, reason, actorEmail: admin.email });
      if (result.ok) return { message: result.message };
      if (result.reason === "shipped")
        return apiError(409, "This order has shipped, so it can no longer be cancelled. Refund it instead if the customer sends it back.");
      if (result.reason === "refund-pending")
        return apiError(409, "A refund of this order is already pending with Stripe; cancel it once Stripe has answered.");
      return refundRefusal(result);
    },
  }),

  /**
   * {} → { checked, paid, expired }. Asks Stripe now about every unpaid order
   * whose payment page was opened, whatever its age, and applies what it
   * finds as the webhook would (the job does the same every two minutes for
   * recent pages). For the morning after a webhook outage.
   */
  "reconcile-payments": defineFunction({
    access: "payments.reconcile",
    body: z.object({}).strict(),
    example: {},
    run: () => reconcilePayments({ all: true }),
  }),
};
