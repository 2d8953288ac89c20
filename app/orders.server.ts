import { db } from "~/db.server";
import { checkDelivery, zoneMinimumCents, type DeliveryCheck } from "~/delivery.server";
import { fulfilmentEmail, orderConfirmationEmail } from "~/emails.server";
import type { Shipping } from "~/lib/checkout-form";
import { messages, minimumOrderMessage, zoneMinimumMessage, type Message } from "~/lib/messages";
import { enqueueEmails } from "~/outbox.server";
import {
  createCheckoutSession,
  describeStripeError,
  expireCheckoutSession,
  retrieveCheckoutSession,
} from "~/payments.server";
import {
  UnknownProductError,
  checkDiscountCode,
  normalizeCode,
  normalizeEmail,
  priceOrder,
  type AppliedDiscount,
} from "~/pricing.server";

/**
 * An order's life: placed (written unpaid with its Stripe Checkout Session),
 * paid exactly once (webhook or verify-payment, whichever comes first), or
 * released when the session expires.
 */

/** A reason the order cannot be placed, in the spec's words; status is the HTTP answer. */
export class CheckoutProblem extends Error {
  constructor(
    public readonly problem: Message,
    public readonly status = 400,
    public readonly delivery?: DeliveryCheck,
  ) {
    super(`${problem.title}: ${problem.description}`);
  }
}

export type PlaceOrderInput = {
  items: { productId: string; quantity: number }[];
  shipping: Shipping;
  discountCode: string | null;
  origin: string;
};

/** Re-checks everything (minimum, delivery zone, zone minimum, code), then writes the order and opens payment. */
export async function placeOrder(input: PlaceOrderInput): Promise<{ orderId: string; url: string }> {
  const email = normalizeEmail(input.shipping.email);
  let discount: AppliedDiscount | null = null;
  if (input.discountCode && normalizeCode(input.discountCode)) {
    const checked = await checkDiscountCode(input.discountCode, email);
    if (!checked.valid) throw new CheckoutProblem({ title: "Invalid Code", description: checked.error, destructive: true });
    discount = checked;
  }

  const price = await priceOrder(input.items, discount).catch((error: unknown) => {
    if (error instanceof UnknownProductError) {
      throw new CheckoutProblem({
        title: "Checkout Error",
        description: "Some items in your cart are no longer available. Please review your cart.",
        destructive: true,
      });
    }
    throw error;
  });
  if (price.lines.length === 0) throw new CheckoutProblem({ title: "Checkout Error", description: "Your cart is empty.", destructive: true });
  if (!price.meetsMinimum) throw new CheckoutProblem(minimumOrderMessage(price.remainingCents));

  const delivery = await checkDelivery(input.shipping);
  if (!delivery.isWithinRange) {
    throw new CheckoutProblem(delivery.error ? messages.deliveryError : messages.outsideArea, 400, delivery);
  }
  const zoneMinimum = zoneMinimumCents(delivery);
  if (price.subtotalCents < zoneMinimum) throw new CheckoutProblem(zoneMinimumMessage(zoneMinimum), 400, delivery);

  if (discount?.firstOrderOnly) await closeEarlierAttempts(email, discount.code);

  const { shipping } = input;
  const order = await db.order.create({
    data: {
      email,
      firstName: shipping.firstName,
      lastName: shipping.lastName,
      phone: shipping.phone ?? null,
      address: shipping.address,
      city: shipping.city,
      state: shipping.state,
      zipCode: shipping.zipCode,
      subtotalCents: price.subtotalCents,
      discountCents: price.discountCents,
      discountCode: discount?.code ?? null,
      shippingCents: price.shippingCents,
      totalCents: price.totalCents,
      deliveryZone: delivery.deliveryZone,
      distanceTenths: Math.round((delivery.distance ?? 0) * 10),
      items: {
        create: price.lines.map((line) => ({
          productId: line.product.id,
          name: line.product.name,
          unitPriceCents: line.product.priceCents,
          quantity: line.quantity,
        })),
      },
    },
    include: { items: true },
  });

  let session;
  try {
    session = await createCheckoutSession(order, input.origin);
  } catch (error) {
    console.error(`Checkout Session for order ${order.id} failed: ${describeStripeError(error)}`);
    throw new CheckoutProblem(messages.checkoutError, 502);
  }
  if (session.amount_total !== order.totalCents || !session.url) {
    console.error(`Checkout Session ${session.id} totals ${session.amount_total}, order ${order.id} totals ${order.totalCents}`);
    await expireCheckoutSession(session.id);
    throw new CheckoutProblem(messages.checkoutError, 502);
  }
  await db.order.update({ where: { id: order.id }, data: { stripeSessionId: session.id } });
  return { orderId: order.id, url: session.url };
}

/**
 * A first-order code may be paid for once: a new checkout with it closes the
 * same customer's earlier unpaid attempts (an abandoned tab, a cancelled
 * payment), so two of them cannot both be paid.
 */
async function closeEarlierAttempts(email: string, code: string) {
  const open = await db.order.findMany({
    where: { email, discountCode: code, paymentStatus: "unpaid", stripeSessionId: { not: null } },
    select: { id: true, stripeSessionId: true },
  });
  for (const order of open) {
    await expireCheckoutSession(order.stripeSessionId!);
    await db.order.updateMany({ where: { id: order.id, paymentStatus: "unpaid" }, data: { paymentStatus: "expired" } });
  }
}

/**
 * Marks the order paid exactly once, however many times and from however many
 * places it is called: the conditional update lets one caller through, and
 * that caller queues the emails in the same transaction.
 */
export async function markOrderPaid(orderId: string, sessionId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.order.updateMany({
      where: { id: orderId, stripeSessionId: sessionId, paymentStatus: { not: "paid" } },
      data: { paymentStatus: "paid", paidAt: new Date() },
    });
    if (count === 0) return false;
    const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    if (order.discountCode) {
      await tx.discountCode.updateMany({ where: { code: order.discountCode }, data: { timesUsed: { increment: 1 } } });
    }
    await enqueueEmails(tx, [orderConfirmationEmail(order), fulfilmentEmail(order)]);
    return true;
  });
}

/** An expired Checkout Session frees its order: it can no longer be paid. */
export async function releaseOrder(orderId: string, sessionId: string) {
  await db.order.updateMany({
    where: { id: orderId, stripeSessionId: sessionId, paymentStatus: "unpaid" },
    data: { paymentStatus: "expired" },
  });
}

export type Verification = { verified: boolean; orderId: string | null };

/** Asks Stripe about a session; a paid one fulfils its order (verify-payment and /order-success). */
export async function verifyPayment(sessionId: string): Promise<Verification> {
  const session = await retrieveCheckoutSession(sessionId);
  const orderId = session.metadata?.orderId ?? null;
  if (!orderId || session.payment_status !== "paid") return { verified: false, orderId };
  await markOrderPaid(orderId, session.id);
  const order = await db.order.findUnique({ where: { id: orderId }, select: { paymentStatus: true } });
  return { verified: order?.paymentStatus === "paid", orderId };
}

export function findPaidOrder(orderId: string) {
  return db.order.findFirst({
    where: { id: orderId, paymentStatus: "paid" },
    select: { id: true, email: true, totalCents: true, createdAt: true, items: { select: { name: true, quantity: true, unitPriceCents: true } } },
  });
}

/** The items of an unpaid order, to refill the cart when its payment is cancelled. */
export async function unpaidOrderItems(orderId: string) {
  const order = await db.order.findFirst({
    where: { id: orderId, paymentStatus: { not: "paid" } },
    select: { items: { select: { productId: true, quantity: true } } },
  });
  return order?.items ?? [];
}
