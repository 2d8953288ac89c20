import Stripe from "stripe";
import { z } from "zod";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { addressSchema, shippingSchema } from "~/lib/checkout-form";
import { DELIVERY_PROBLEMS } from "~/lib/delivery-zones";
import { DISCOUNT_CODE_MAX_LENGTH } from "~/lib/discount-code";
import { canonicalMailbox, EMAIL_MAX_LENGTH, emailSchema } from "~/lib/email";
import { HONEYPOT_FIELD } from "~/lib/forms";
import { messages, outsideAreaMessage, partnershipMessages } from "~/lib/messages";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { describePartnershipErrors, partnershipSchema } from "~/lib/partnership-form";
import { checkDeliveryOf, type DeliveryCheck } from "~/models/delivery.server";
import { deliveryDatesFor } from "~/models/delivery-days.server";
import { calendarDay } from "~/models/delivery-schedule.server";
import { shopSettings } from "~/models/catalog.server";
import { subscribe } from "~/models/newsletter.server";
import { placeOrder, verifyPayment, type CheckoutRefusal } from "~/models/orders.server";
import { submitInquiry } from "~/models/partnership.server";
import { checkDiscountCode, type OrderPrice } from "~/models/pricing.server";
import { CHECKOUT_SESSION_ID, stripeConfigured, webhookSecret } from "~/services/stripe.server";
import { apiError } from "~/utils/api.server";
import { env } from "~/utils/env.server";
import { describeError } from "~/utils/errors.server";
import { publicOrigin } from "~/utils/origin.server";
import { defineFunction } from "./define.server";

const lineQuantity = z.number().int().min(1).max(MAX_LINE_QUANTITY);
/**
 * A cart line for validate-discount-code: the shop's own `{ productId, quantity }`,
 * or the spec's `{ product: { id, … }, quantity }` as simple-checkout takes it.
 */
const discountLine = z.union([
  z.object({ productId: z.string().min(1).max(64), quantity: lineQuantity }),
  z
    .object({ product: z.object({ id: z.string().min(1).max(64) }).passthrough(), quantity: lineQuantity })
    .transform(({ product, quantity }) => ({ productId: product.id, quantity })),
]);

const discountSchema = z.object({
  code: z.string({ required_error: "is required" }).max(DISCOUNT_CODE_MAX_LENGTH, "is too long"),
  email: z.string({ required_error: "is required" }),
  /** The cart, when the caller has one: a code's conditions (its minimum, bars or bites only) are then judged on it. */
  items: z.array(discountLine).max(50).optional(),
});

/**
 * The spec's request body (§7). Every figure is computed from the catalogue;
 * what the client showed is only compared with it. A unit price
 * (`product.price`) or a `discountAmount` the client sends, both in dollars,
 * must match ours: a client that shows one price is never charged another
 * (409 with our figures instead). Both stay optional, as the spec's body has
 * them; a line sent without a price is priced by the shop alone.
 */
const checkoutSchema = z.object({
  items: z
    .array(
      z.object({
        product: z.object({ id: z.string().min(1).max(64), price: z.number().nonnegative().finite().optional() }).passthrough(),
        quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
      }),
    )
    .min(1, "must hold at least one item")
    .max(50),
  shipping: shippingSchema,
  email: z.string().max(EMAIL_MAX_LENGTH).optional(),
  discountCode: z.string().max(DISCOUNT_CODE_MAX_LENGTH).nullable().optional(),
  discountAmount: z.number().nonnegative().optional(),
  /** The delivery day the customer chose, and its window (decision 100); without them, the earliest with room. */
  deliveryDate: calendarDay.optional(),
  deliverySlot: z.string().max(30).optional(),
});

/** get-delivery-dates: an address, or its ZIP code alone (placed at its middle). */
const deliveryDatesSchema = addressSchema.partial({ address: true, city: true, state: true });

const statusFor: Record<CheckoutRefusal, number> = {
  "invalid-code": 400,
  "code-unavailable": 409,
  cart: 400,
  minimum: 400,
  "outside-area": 400,
  "zone-minimum": 400,
  "total-changed": 409,
  "out-of-stock": 409,
  "payment-provider": 502,
  "in-progress": 409,
  "delivery-day": 409,
};

/** The delivery check as requirements §3 answers it: the minimum in dollars, an `error` when the address could not be checked. */
function deliveryJson(delivery: DeliveryCheck) {
  if (delivery.ok) {
    return { isWithinRange: true, distance: delivery.miles, deliveryZone: delivery.zone, minimumOrder: centsToDollars(delivery.minimumCents) };
  }
  if (delivery.reason === "outside-area") {
    return { isWithinRange: false, distance: delivery.miles, deliveryZone: "no-delivery", minimumOrder: 0 };
  }
  return { isWithinRange: false, distance: null, deliveryZone: "no-delivery", minimumOrder: 0, error: DELIVERY_PROBLEMS[delivery.reason] };
}

type BodyItem = z.infer<typeof checkoutSchema>["items"][number];

/**
 * The shop's figures in dollars, for a client to show instead of its own:
 * each line as the client sent it with the product's current unit price, and
 * the order's discount, subtotal, shipping and total.
 */
function figuresJson(price: OrderPrice, sent: BodyItem[]) {
  const current = new Map(price.lines.map((line) => [line.product.id, line.product.priceCents]));
  return {
    items: sent.flatMap((item) => {
      const priceCents = current.get(item.product.id);
      return priceCents === undefined ? [] : [{ product: { id: item.product.id, price: centsToDollars(priceCents) }, quantity: item.quantity }];
    }),
    discountAmount: centsToDollars(price.discountCents),
    subtotal: centsToDollars(price.subtotalCents),
    shippingCost: centsToDollars(price.shippingCents),
    total: centsToDollars(price.totalCents),
  };
}

const verifySchema = z.object({
  sessionId: z.string({ required_error: "is required" }).regex(CHECKOUT_SESSION_ID, "is not a Checkout Session id"),
});

const newsletterSchema = z.object({
  email: z.string({ required_error: "is required" }),
  [HONEYPOT_FIELD]: z.string().max(200).optional(),
});

const inquirySchema = z.object({
  name: z.string().max(1000).optional(),
  email: z.string().max(1000).optional(),
  business: z.string().max(1000).nullable().optional(),
  message: z.string().max(20_000).optional(),
  [HONEYPOT_FIELD]: z.string().max(200).optional(),
});

/** The storefront's functions: anyone may call them, each counted per client address. */
export const storefrontFunctions = {
  /**
   * { code, email, items? } → { valid, discount (a fraction, percent codes), description, error }
   * (requirements §7), plus the code's kind, amountOff and minimumSubtotal (dollars or null) and
   * appliesTo (decision 053). With `items`, a cart that does not meet the code's conditions is
   * answered valid: false with the reason ("Spend $40.00 or more to use SAVE5").
   */
  "validate-discount-code": defineFunction({
    access: "public",
    rateLimit: "discount",
    body: discountSchema,
    example: { code: "WELCOME10", email: "ana@example.com", items: [{ productId: "bar-chocolate-pb", quantity: 4 }] },
    async run({ body }) {
      const email = emailSchema.safeParse(body.email);
      if (!email.success) return apiError(400, `email: ${email.error.issues[0]?.message}`);
      const result = await checkDiscountCode(body.code, canonicalMailbox(email.data), { items: body.items });
      if (!result.ok) return { valid: false, discount: 0, description: null, error: result.error };
      const { discount } = result;
      return {
        valid: true,
        code: discount.code,
        discount: discount.kind === "percent" ? discount.terms.basisPoints / 10000 : 0,
        description: discount.description,
        error: null,
        kind: discount.kind,
        amountOff: discount.kind === "amount" ? centsToDollars(discount.terms.amountOffCents) : null,
        minimumSubtotal: discount.minimumSubtotalCents === null ? null : centsToDollars(discount.minimumSubtotalCents),
        appliesTo: discount.appliesTo,
      };
    },
  }),

  "simple-checkout": defineFunction({
    access: "public",
    rateLimit: "checkout",
    body: checkoutSchema,
    example: {
      items: [{ product: { id: "bar-chocolate-pb", price: 6 }, quantity: 4 }],
      shipping: {
        firstName: "Ana",
        lastName: "Ruiz",
        email: "ana@example.com",
        phone: "(310) 555-0142",
        address: "11500 W Olympic Blvd",
        city: "Los Angeles",
        state: "CA",
        zipCode: "90025",
      },
      discountCode: null,
    },
    async run({ body }) {
      const placed = await placeOrder({
        items: body.items.map((item) => ({ productId: item.product.id, quantity: item.quantity })),
        shipping: body.shipping,
        discountCode: body.discountCode ?? null,
        origin: publicOrigin(),
        expectedDiscountCents: body.discountAmount === undefined ? undefined : dollarsToCents(body.discountAmount),
        expectedUnitPrices: body.items.flatMap(({ product }) =>
          product.price === undefined ? [] : [{ productId: product.id, unitPriceCents: dollarsToCents(product.price) }],
        ),
        deliveryDay: { date: body.deliveryDate, slot: body.deliverySlot },
      });
      if (placed.ok) {
        const { date, slot } = placed.deliveryDay;
        return { url: placed.url, orderId: placed.orderId, deliveryDate: date, deliverySlot: slot };
      }
      return apiError(statusFor[placed.refusal], placed.message.description, {
        title: placed.message.title,
        delivery: placed.delivery && deliveryJson(placed.delivery),
        ...(placed.price && figuresJson(placed.price, body.items)),
        ...(placed.dates && { dates: placed.dates }),
      });
    },
  }),

  /**
   * { zipCode, address?, city?, state? } → { zone, dates: [{ date, label, available,
   * reason?, slots: [{ id, label, available }] }] }: the days of the window from the
   * earliest on, in order, for the address's zone, each unavailable one with why
   * ("full", "closed", "not served in your zone") (decision 100). An address
   * outside the area is answered 400 with the delivery check, as simple-checkout does.
   */
  "get-delivery-dates": defineFunction({
    access: "public",
    rateLimit: "delivery",
    body: deliveryDatesSchema,
    example: { zipCode: "90025", address: "11500 W Olympic Blvd", city: "Los Angeles", state: "CA" },
    async run({ body }) {
      const delivery = await checkDeliveryOf(body);
      if (!delivery.ok) {
        const message = delivery.reason === "outside-area" ? outsideAreaMessage(delivery.radiusMiles) : messages.deliveryError;
        return apiError(400, message.description, { title: message.title, delivery: deliveryJson(delivery) });
      }
      const { delivery: schedule } = await shopSettings();
      return { zone: delivery.zone, dates: await deliveryDatesFor(schedule, delivery.zone) };
    },
  }),

  /**
   * { sessionId } → { verified, orderId }: a paid session fulfils its order (once).
   * Each call may ask Stripe, so it is rate limited per address ("verify", shared
   * with /order-success).
   */
  "verify-payment": defineFunction({
    access: "public",
    rateLimit: "verify",
    body: verifySchema,
    example: { sessionId: "cs_test_a1b2c3d4e5f6g7h8i9j0" },
    async run({ body: { sessionId } }) {
      try {
        return await verifyPayment(sessionId);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
          return { verified: false, orderId: null };
        }
        // Briefly: a database error's full message would print the query's arguments.
        console.error(`verify-payment for ${sessionId} failed: ${describeError(error)}`);
        if (!(error instanceof Stripe.errors.StripeError)) return apiError(500, "Something went wrong. Please try again.");
        return apiError(502, "Could not reach the payment provider. Please try again.");
      }
    },
  }),

  /** { email } → signs up for the newsletter; the welcome email goes out once per address. */
  "send-welcome-email": defineFunction({
    access: "public",
    rateLimit: "newsletter",
    body: newsletterSchema,
    example: { email: "ana@example.com" },
    async run({ body }) {
      if (body[HONEYPOT_FIELD]) return { ok: true };
      const email = emailSchema.safeParse(body.email);
      if (!email.success) return apiError(400, body.email.trim() ? messages.invalidEmail.description : "Please enter your email address.");
      await subscribe(email.data, publicOrigin());
      return { ok: true };
    },
  }),

  /** { name, email, business, message } → stored and emailed to the team. */
  "send-partnership-inquiry": defineFunction({
    access: "public",
    rateLimit: "partnership",
    body: inquirySchema,
    example: {
      name: "Ana Ruiz",
      email: "ana@example.com",
      business: "Ruiz Corner Market",
      message: "We would love to stock your bars at our two shops in Santa Monica. Could you send us your wholesale prices?",
    },
    async run({ body }) {
      if (body[HONEYPOT_FIELD]) return { ok: true, message: partnershipMessages.sent.description };
      const parsed = partnershipSchema.safeParse({ ...body, business: body.business ?? undefined });
      if (!parsed.success) {
        const { message, fieldErrors } = describePartnershipErrors(parsed.error);
        return apiError(400, message.description, { title: message.title, fieldErrors });
      }
      await submitInquiry(parsed.data);
      return { ok: true, message: partnershipMessages.sent.description };
    },
  }),

  /** Which integrations are configured, as booleans: never a value (requirements §7). Rate limited per address. */
  "check-secrets": defineFunction({
    access: "public",
    rateLimit: "check-secrets",
    run: async () => ({
      stripe: stripeConfigured(),
      stripeWebhook: Boolean(webhookSecret()),
      email: Boolean(env.SMTP_URL),
      geocoder: Boolean(env.GEOCODER_URL),
      mocks: env.MOCKS,
    }),
  }),
};
