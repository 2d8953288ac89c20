import { randomUUID } from "node:crypto";
import { sql as sqlText } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { phoneKey } from "~/lib/phone";
import { at, db, isUniqueViolation, sqlDb, sqlIn, transaction, withTryLock, inTransaction, type Sql } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { checkDelivery, type DeliveryCheck, type DeliveryInRange } from "~/models/delivery.server";
import { fulfilmentEmail, orderConfirmationEmail, type ShopFooter } from "~/services/emails.server";
import type { Shipping } from "~/lib/checkout-form";
import { shippingFields, shippingSelect, storedShipping } from "~/lib/shipping-fields";
import { canonicalMailbox, mailboxDomain } from "~/lib/email";
import { formatCents } from "~/lib/money";
import { isTakenPayment, type PaymentStatus } from "~/lib/orders";
import { applyEarlyRefund, lockPaymentIntent } from "~/models/refunds.server";
import { messages, minimumOrderMessage, outsideAreaMessage, zoneMinimumMessage, type Message } from "~/lib/messages";
import { enqueueEmails } from "~/services/outbox.server";
import { OutOfStock, holdStock, releaseStock, retakeStock } from "~/models/stock.server";
import { recordPaymentChange } from "~/models/daily-sales.server";
import { describeError } from "~/utils/errors.server";
import { recordAudit } from "~/models/audit.server";
import { reportError } from "~/services/error-reports.server";
import { metrics } from "~/utils/metrics.server";
import {
  closeCheckoutSession,
  createCheckoutSession,
  isCheckoutSessionPaid,
  paymentIntentIdOf,
  retrieveCheckoutSessionCached,
  type PageClosing,
  type SessionOrder,
} from "~/services/stripe.server";
import {
  CODE_EXPIRED,
  checkDiscountCode,
  normalizeCode,
  describeCartProblem,
  lineTotalCents,
  priceOrder,
  type AppliedDiscount,
  type OrderPrice,
} from "~/models/pricing.server";
import { catalogChangedHere, shopSettings, type Product } from "~/models/catalog.server";
import { deliveryDatesFor, everyChoice, holdDeliveryPlace, pickDelivery, type DeliveryChoice } from "~/models/delivery-days.server";
import { deliveryWhen, orderDeliveryWhen, type DeliverySchedule, type OfferedDate } from "~/lib/delivery-schedule";

/**
 * An order's life: placed (written unpaid with its Stripe Checkout Session,
 * its discount code reserved), then paid exactly once (webhook or
 * verify-payment, whichever comes first), or given up (expired or cancelled),
 * which gives its code back.
 */

/** Why an order was not placed; the route turns it into a status and shows `message`. */
export type CheckoutRefusal =
  | "invalid-code"
  | "code-unavailable"
  | "cart"
  | "minimum"
  | "outside-area"
  | "zone-minimum"
  | "total-changed"
  | "out-of-stock"
  | "payment-provider"
  /** Another attempt of the same mailbox holds its first-order code and is being set up (409). */
  | "in-progress"
  /** The delivery day (or window) asked for is not on offer, or no day is (409, with the days on offer). */
  | "delivery-day";

/** The day (and window) an order is delivered on, as it was offered: its window's words too. */
export type DeliveryDay = { date: string; slot: string | null; slotLabel: string | null };

export type PlaceOrderResult =
  | { ok: true; orderId: string; url: string; totalCents: number; deliveryDay: DeliveryDay }
  | { ok: false; refusal: CheckoutRefusal; message: Message; delivery?: DeliveryCheck; price?: OrderPrice; dates?: OfferedDate[] };

export type PlaceOrderInput = {
  items: { productId: string; quantity: number }[];
  shipping: Shipping;
  discountCode: string | null;
  origin: string;
  /** The total the customer was shown: the order is refused when ours differs. */
  expectedTotalCents?: number;
  /** The discount a client computed itself (simple-checkout's discountAmount): refused when ours differs. */
  expectedDiscountCents?: number;
  /** The unit prices a client showed (simple-checkout's items[].product.price), line by line: refused when ours differ. */
  expectedUnitPrices?: { productId: string; unitPriceCents: number }[];
  /** The delivery day (and window) the customer chose; without a day, the earliest with room is taken. */
  deliveryDay?: { date?: string | null; slot?: string | null };
};

const refuse = (refusal: CheckoutRefusal, message: Message, extra: { delivery?: DeliveryCheck; price?: OrderPrice; dates?: OfferedDate[] } = {}) =>
  ({ ok: false, refusal, message, ...extra }) as const;

/** A chosen day (or window) that is no longer, or never was, on offer. */
const dayNotOffered: Message = {
  title: "Delivery Day Unavailable",
  description: "That delivery day is no longer available. Please choose another day.",
  destructive: true,
};

const noDayOpen: Message = {
  title: "No Delivery Day Available",
  description: "Every delivery day we can offer is full or closed. Please contact us to arrange your delivery.",
  destructive: true,
};

/**
 * The days an order may take, in the order it tries them: the one the
 * customer chose (if it is on offer with room now), or, with none chosen,
 * every day and window on offer, the earliest first.
 */
function deliveryChoices(offered: OfferedDate[], wanted: PlaceOrderInput["deliveryDay"]): DeliveryChoice[] {
  if (wanted?.date) {
    const chosen = pickDelivery(offered, wanted);
    return chosen ? [chosen] : [];
  }
  return everyChoice(offered);
}

/**
 * What the customer was shown that the shop no longer charges: the one
 * comparison every checkout path makes before anything is written or charged
 * (the page's quoted total; a client's discount and unit prices). Null when
 * everything shown still holds; else the products whose price changed.
 */
function shownFiguresChanged(input: PlaceOrderInput, price: OrderPrice): { repriced: Product[] } | null {
  const current = new Map(price.lines.map((line) => [line.product.id, line.product]));
  const repriced = new Map<string, Product>();
  for (const { productId, unitPriceCents } of input.expectedUnitPrices ?? []) {
    const product = current.get(productId);
    if (product && product.priceCents !== unitPriceCents) repriced.set(product.id, product);
  }
  const changed =
    repriced.size > 0 ||
    (input.expectedTotalCents !== undefined && input.expectedTotalCents !== price.totalCents) ||
    (input.expectedDiscountCents !== undefined && input.expectedDiscountCents !== price.discountCents);
  return changed ? { repriced: [...repriced.values()] } : null;
}

const totalChangedMessage = (totalCents: number, repriced: Product[]): Message => {
  const prices = repriced.map((product) => `${product.name} is now ${formatCents(product.priceCents)}`).join(", ");
  return {
    title: "Total Updated",
    description: `${prices ? `Prices have changed: ${prices}. ` : ""}Your order total is now ${formatCents(totalCents)}. Please check it and place your order again.`,
    destructive: true,
  };
};

/** Re-checks everything (code, cart, minimum, delivery zone, zone minimum, total), then writes the order and opens payment. */
export async function placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const email = input.shipping.email;
  const mailbox = canonicalMailbox(email);
  let discount: AppliedDiscount | null = null;
  if (input.discountCode && normalizeCode(input.discountCode)) {
    const checked = await checkDiscountCode(input.discountCode, mailbox, { items: input.items });
    // Used up by other orders is the same conflict whether it is seen here or when the use is reserved.
    if (!checked.ok)
      return refuse(checked.reason === "used-up" ? "code-unavailable" : "invalid-code", {
        title: "Invalid Code",
        description: checked.error,
        destructive: true,
      });
    discount = checked.discount;
  }

  // The cart first (no zone yet): what stops it is said before the address is looked up.
  const unzoned = await priceOrder(input.items, discount);
  const { problem } = unzoned;
  if (problem) return refuse("cart", { title: "Checkout Error", description: describeCartProblem(problem), destructive: true }, { price: unzoned.price });
  if (unzoned.price.lines.length === 0) return refuse("cart", { title: "Checkout Error", description: "Your cart is empty.", destructive: true });
  if (!unzoned.price.meetsMinimum) {
    return refuse("minimum", minimumOrderMessage(unzoned.price.minimumCents, unzoned.price.remainingCents), { price: unzoned.price });
  }

  const delivery = await checkDelivery(input.shipping);
  if (!delivery.ok) {
    const message = delivery.reason === "outside-area" ? outsideAreaMessage(delivery.radiusMiles) : messages.deliveryError;
    return refuse("outside-area", message, { delivery, price: unzoned.price });
  }
  // Then priced in its zone (its fee, its free-shipping threshold, its minimum): the figures the order keeps.
  // Priced afresh, so the cart is checked again: a product sold out meanwhile (its stock ran out while the
  // address was looked up) would otherwise drop out of the order's lines unnoticed.
  const zoned = await priceOrder(input.items, discount, delivery.zone);
  const { price } = zoned;
  if (zoned.problem)
    return refuse("cart", { title: "Checkout Error", description: describeCartProblem(zoned.problem), destructive: true }, { delivery, price });
  if (price.zoneRemainingCents > 0) return refuse("zone-minimum", zoneMinimumMessage(price.zoneMinimumCents ?? delivery.minimumCents), { delivery, price });
  const changed = shownFiguresChanged(input, price);
  if (changed) return refuse("total-changed", totalChangedMessage(price.totalCents, changed.repriced), { delivery, price });

  // The delivery day: the one chosen, if it is on offer for the address's zone now; else the earliest with room.
  const { delivery: schedule } = await shopSettings();
  const offered = await deliveryDatesFor(schedule, delivery.zone);
  const choices = deliveryChoices(offered, input.deliveryDay);
  if (choices.length === 0) return refuse("delivery-day", input.deliveryDay?.date ? dayNotOffered : noDayOpen, { delivery, price, dates: offered });
  const day: Day = { schedule, choices, offered };

  const customer = { ...input.shipping, email, mailbox };
  // A first-order code is held per mailbox: the unique claim lets one unpaid order of the mailbox hold it.
  const claim = discount?.firstOrderOnly ? `${discount.code}:${mailbox}` : null;
  const placed = await reserveAndCreate(customer, price, discount, delivery, day, claim);
  let opened: PlaceOrderResult;
  if (placed.ok) opened = await openPaymentPage(placed.order, input.origin);
  else if (placed.refusal !== "claim-held") return placed;
  else {
    // An earlier attempt of this mailbox holds the claim (so there is one, and its code): take it over, one attempt at a time (decision 080).
    opened = await takeOverClaim(claim!, discount!.code, async () => {
      const unclaimed = await reserveAndCreate(customer, price, discount, delivery, day, null);
      if (!unclaimed.ok) return unclaimed.refusal === "claim-held" ? refuse("in-progress", checkoutInProgress) : unclaimed;
      return openPaymentPage(unclaimed.order, input.origin);
    });
  }
  if (opened.ok) metrics().ordersPlaced.inc();
  return opened;
}

/** What a checkout is told while another attempt of the same mailbox holds its first-order code and is being set up. */
const checkoutInProgress: Message = {
  title: "Checkout Error",
  description: "Your order is already being set up in another tab or window. Please use that one, or try again in a moment.",
  destructive: true,
};

const firstTimeOnly = (code: string): Message => ({ title: "Invalid Code", description: `"${code}" is for first-time customers only.`, destructive: true });

/**
 * Opens the Stripe payment page of an order just written and attaches it.
 * An order given up meanwhile (a newer attempt took its place) closes the
 * page it made; a page Stripe could not open, or whose total is not the
 * order's, gives the order up.
 */
async function openPaymentPage(order: PlacedOrder, origin: string): Promise<PlaceOrderResult & { sessionId?: string }> {
  let session;
  try {
    session = await createCheckoutSession(order, origin);
  } catch (error) {
    console.error(`Checkout Session for order ${order.id} failed: ${describeError(error)}`);
    metrics().paymentFailures.inc({ reason: "stripe_error" });
    await giveUpOrder(order.id, "cancelled");
    return refuse("payment-provider", messages.checkoutError);
  }
  if (session.amount_total !== order.totalCents || !session.url) {
    console.error(`Checkout Session ${session.id} totals ${session.amount_total}, order ${order.id} totals ${order.totalCents}`);
    metrics().paymentFailures.inc({ reason: "total_mismatch" });
    await closeCheckoutSession(session.id);
    await giveUpOrder(order.id, "cancelled");
    return refuse("payment-provider", messages.checkoutError);
  }
  // Conditional: the order may have been given up meanwhile (an attempt that found it stuck without a page).
  const attached = await sqlDb()
    .updateTable("Order")
    .set({ stripeSessionId: session.id, stripeSessionUrl: session.url, updatedAt: at(new Date()) })
    .where("id", "=", order.id)
    .where("paymentStatus", "=", "unpaid")
    .executeTakeFirst();
  if (attached.numUpdatedRows === 0n) {
    await closeCheckoutSession(session.id);
    return refuse("code-unavailable", {
      title: "Checkout Error",
      description: "This order was replaced by a newer checkout. Please use the newest payment page.",
      destructive: true,
    });
  }
  return { ok: true, orderId: order.id, url: session.url, totalCents: order.totalCents, deliveryDay: order.deliveryDay, sessionId: session.id };
}

/**
 * How long an attempt may be without its payment page before it counts as
 * stuck (its instance died between writing it and opening the page): the
 * time Stripe is given to open one, three times over.
 */
const PLACING_MS = 3 * env.STRIPE_TIMEOUT_MS;

/**
 * A first-order code's claim moves from the mailbox's earlier attempt (the
 * holder: another tab, an abandoned payment page) to this one, one attempt at
 * a time across every instance (an advisory lock on the claim: an attempt
 * that finds it taken is answered 409 at once). Within it, in this order, so
 * that no answered attempt is closed unless its replacement is ready:
 * - a holder that is paid ends it: the code is for first-time customers;
 * - a holder still being set up (no payment page yet, and not stuck) is left
 *   to finish: this attempt is answered 409;
 * - this attempt's order is written without the claim and its payment page
 *   opened (`placeUnclaimed`);
 * - the holder's page is closed at Stripe, so it can never be paid (if
 *   Stripe cannot close it, or it was paid just now, this attempt is given
 *   up and the holder keeps its page); a stuck holder, with no page, is given
 *   up, unless it opened one meanwhile;
 * - the claim moves to this order in one transaction, and the holder is
 *   given up (its stock and its use of the code back).
 */
async function takeOverClaim(claim: string, code: string, placeUnclaimed: () => Promise<PlaceOrderResult & { sessionId?: string }>): Promise<PlaceOrderResult> {
  const outcome = await withTryLock(`first-order-claim:${claim}`, async (): Promise<PlaceOrderResult> => {
    const holder = await db.order.findUnique({
      where: { firstOrderClaim: claim },
      select: { id: true, paymentStatus: true, stripeSessionId: true, createdAt: true },
    });
    if (holder && isTakenPayment(holder.paymentStatus)) return refuse("code-unavailable", firstTimeOnly(code));
    const stuck = holder !== null && !holder.stripeSessionId && Date.now() - holder.createdAt.getTime() > PLACING_MS;
    if (holder && !holder.stripeSessionId && !stuck) return refuse("in-progress", checkoutInProgress);

    const opened = await placeUnclaimed();
    if (!opened.ok || !opened.sessionId) return opened;
    const abandon = async (result: PlaceOrderResult) => {
      await closeCheckoutSession(opened.sessionId!);
      await giveUpOrder(opened.orderId, "cancelled");
      return result;
    };
    if (holder?.stripeSessionId) {
      const closed = await closeCheckoutSession(holder.stripeSessionId);
      if (!closed.ok) {
        return abandon(
          closed.reason === "paid"
            ? refuse("code-unavailable", firstTimeOnly(code))
            : refuse("payment-provider", {
                title: "Checkout Error",
                description: "We could not close your earlier checkout. Please try again in a moment.",
                destructive: true,
              }),
        );
      }
    } else if (holder && !(await giveUpOrder(holder.id, "cancelled", { stripeSessionId: null }))) {
      // A stuck holder is given up first, and only if it still has no page: a slow placer that opened one meanwhile keeps it.
      return abandon(refuse("in-progress", checkoutInProgress));
    }
    const closedHolder = holder?.stripeSessionId ? holder.id : null;
    if (!(await moveClaim(claim, closedHolder, opened.orderId))) return abandon(refuse("in-progress", checkoutInProgress));
    if (closedHolder) await giveUpOrder(closedHolder, "cancelled");
    const { sessionId: _sessionId, ...result } = opened;
    return result;
  });
  return outcome ?? refuse("in-progress", checkoutInProgress);
}

/** The claim from `holderId` (if any) to `orderId`, in one transaction: no other attempt can take it between the two. */
async function moveClaim(claim: string, holderId: string | null, orderId: string): Promise<boolean> {
  try {
    return await transaction(async (sql) => {
      const now = at(new Date());
      if (holderId) {
        await sql.db
          .updateTable("Order")
          .set({ firstOrderClaim: null, updatedAt: now })
          .where("id", "=", holderId)
          .where("firstOrderClaim", "=", claim)
          .execute();
      }
      const { numUpdatedRows } = await sql.db
        .updateTable("Order")
        .set({ firstOrderClaim: claim, updatedAt: now })
        .where("id", "=", orderId)
        .where("paymentStatus", "=", "unpaid")
        .executeTakeFirst();
      return numUpdatedRows === 1n;
    });
  } catch (error) {
    // A new attempt took the claim, free for a moment because its holder was given up meanwhile.
    if (isUniqueViolation(error, "Order_firstOrderClaim_key")) return false;
    throw error;
  }
}

type Customer = Shipping & { mailbox: string };

/** reserveAndCreate's answer when an earlier attempt of the mailbox holds the first-order claim: never a customer's answer as it is. */
const CLAIM_HELD = { ok: false, refusal: "claim-held" } as const;

/** The order as the rest of placing it needs it: its payment page is made from these. */
type PlacedOrder = SessionOrder & { totalCents: number; deliveryDay: DeliveryDay };

/** The delivery days an order may take, in order, and what was on offer (what a refusal answers). */
type Day = { schedule: DeliverySchedule; choices: DeliveryChoice[]; offered: OfferedDate[] };

/**
 * Writes the order and reserves its code in one transaction. The code's use
 * is taken with a conditional update that cannot pass its usage limit; a
 * first-order code is claimed per mailbox through a unique column (`claim`),
 * so two tabs or instances cannot both hold it: "claim-held" when an earlier
 * attempt holds it (takeOverClaim). Written in SQL through node-pg (decision
 * 068): the order and its lines in one statement, then the stock it holds.
 * A deadlock with another order's stock is run again (transaction()).
 */
async function reserveAndCreate(
  customer: Customer,
  price: OrderPrice,
  discount: AppliedDiscount | null,
  delivery: DeliveryInRange,
  day: Day,
  claim: string | null,
) {
  try {
    let catalogMoved = false;
    const written = await transaction(async (sql): Promise<PlacedOrder | "code" | "day"> => {
      const now = at(new Date());
      if (discount) {
        const { numUpdatedRows } = await sql.db
          .updateTable("DiscountCode")
          .set((eb) => ({ usesHeld: eb("usesHeld", "+", 1) }))
          .where("code", "=", discount.code)
          .where("active", "=", true)
          .where((eb) => eb.or([eb("usageLimit", "is", null), eb("usesHeld", "<", eb.ref("usageLimit"))]))
          // The instant as a parameter of the column's own type (a Date would go in the process's time zone).
          .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", eb.cast<Date>(eb.val(now), "timestamp"))]))
          .executeTakeFirst();
        if (numUpdatedRows === 0n) return "code";
      }
      // The day's place, held like stock: taken under the day's lock, by the order written below (decision 100).
      const held = await holdDeliveryPlace(sql, day.schedule, day.choices);
      if (!held) return "day";
      const slotLabel = held.slot === null ? null : (day.schedule.slots.find((slot) => slot.id === held.slot)?.label ?? null);
      const order: PlacedOrder = {
        id: randomUUID(),
        email: customer.email,
        discountCode: discount?.code ?? null,
        discountCents: price.discountCents,
        shippingCents: price.shippingCents,
        totalCents: price.totalCents,
        items: price.lines.map((line) => ({ name: line.product.name, unitPriceCents: line.product.priceCents, quantity: line.quantity })),
        deliveryDay: { date: held.date, slot: held.slot, slotLabel },
        deliveryWhen: deliveryWhen(held.date, slotLabel),
      };
      // One statement: the order, and its lines in the cart's order (their ids ascending).
      const items = await sql.db
        .with("placed", (db) =>
          db
            .insertInto("Order")
            .values({
              id: order.id,
              // The form's fields as typed, every one of them (checkout-form.ts), and what the searches match.
              ...storedShipping(customer),
              mailbox: customer.mailbox,
              emailDomain: mailboxDomain(customer.email),
              phoneDigits: phoneKey(customer.phone),
              subtotalCents: price.subtotalCents,
              discountCents: price.discountCents,
              discountCode: discount?.code ?? null,
              firstOrderClaim: claim,
              shippingCents: price.shippingCents,
              totalCents: price.totalCents,
              deliveryZone: delivery.zone,
              distanceTenths: Math.round(delivery.miles * 10),
              deliveryDate: sqlText<Date>`${held.date}::date`,
              deliverySlot: held.slot,
              deliverySlotLabel: slotLabel,
              createdAt: now,
              updatedAt: now,
            })
            .returning("id"),
        )
        .insertInto("OrderItem")
        .values(
          price.lines.map((line) => ({
            orderId: order.id,
            productId: line.product.id,
            name: line.product.name,
            unitPriceCents: line.product.priceCents,
            quantity: line.quantity,
          })),
        )
        .returning(["id", "productId", "quantity"])
        .execute();
      // Its quantities of limited stock, held with it: a shortage rolls the whole order back (decision 063).
      ({ versionMoved: catalogMoved } = await holdStock(sql, items));
      return order;
    });
    // Committed: this instance's next page shows what is left now (a sold-out product no longer for sale).
    if (catalogMoved) catalogChangedHere();
    if (written === "day") {
      // Taken meanwhile by other checkouts: what is on offer now.
      const dates = await deliveryDatesFor(day.schedule, delivery.zone);
      return refuse("delivery-day", day.choices.length === 1 ? dayNotOffered : noDayOpen, { dates });
    }
    if (written !== "code") return { ok: true as const, order: written };
    return refuse("code-unavailable", await codeUnavailable(discount!.code));
  } catch (error) {
    if (error instanceof OutOfStock) return refuse("out-of-stock", outOfStockMessage(error));
    if (claim && isUniqueViolation(error, "Order_firstOrderClaim_key")) return CLAIM_HELD;
    throw error;
  }
}

/** Fewer of a product left than the cart asks for: how many there are, in the customer's words. */
function outOfStockMessage(shortage: OutOfStock): Message {
  return {
    title: "Not Enough Left",
    description:
      shortage.left === 0
        ? `${shortage.productName} is sold out. Please remove it from your cart.`
        : `Only ${shortage.left} ${shortage.productName} left. Please lower the quantity in your cart.`,
    destructive: true,
  };
}

/** Why the reservation of a code that passed its check failed: it expired, was switched off or used up meanwhile. */
async function codeUnavailable(code: string): Promise<Message> {
  const current = await db.discountCode.findUnique({ where: { code }, select: { active: true, expiresAt: true } });
  const description = !current?.active
    ? `"${code}" is not a valid discount code.`
    : current.expiresAt !== null && current.expiresAt <= new Date()
      ? CODE_EXPIRED
      : `"${code}" has already been used as often as it can be.`;
  return { title: "Invalid Code", description, destructive: true };
}

/**
 * Closes an unpaid order's payment page and gives the order up. An order
 * still being placed (no payment page yet) is given up at once: its placer
 * sees that when it tries to attach its page, and closes that page itself.
 */
export async function closeOrderPayment(orderId: string, status: "cancelled" | "expired"): Promise<PageClosing> {
  if (await giveUpOrder(orderId, status, { stripeSessionId: null })) return { ok: true };
  const order = await db.order.findUnique({ where: { id: orderId }, select: { paymentStatus: true, stripeSessionId: true } });
  if (!order) return { ok: true };
  if (isTakenPayment(order.paymentStatus)) return { ok: false, reason: "paid" };
  if (order.paymentStatus !== "unpaid" || !order.stripeSessionId) return { ok: true };
  const closed = await closeCheckoutSession(order.stripeSessionId);
  if (closed.ok) await giveUpOrder(orderId, status);
  return closed;
}

/**
 * Marks an unpaid order expired or cancelled, once, and gives back what it
 * held: its discount code's use, its first-order claim and its stock.
 */
async function giveUpOrder(orderId: string, status: "cancelled" | "expired", where: { stripeSessionId?: string | null } = {}): Promise<boolean> {
  return inTransaction(async (tx) => {
    const { count } = await tx.order.updateMany({
      where: { id: orderId, paymentStatus: "unpaid", ...where },
      data: { paymentStatus: status, firstOrderClaim: null },
    });
    if (count === 0) return false;
    const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { discountCode: true, createdAt: true, totalCents: true } });
    await recordPaymentChange(sqlIn(tx), order, "unpaid", status);
    // The code before the stock, in the order placing an order takes them (decision 080): the other way round,
    // a checkout holding the code and waiting for a product deadlocked with a give-up holding the product.
    if (order.discountCode) {
      await tx.discountCode.updateMany({ where: { code: order.discountCode, usesHeld: { gt: 0 } }, data: { usesHeld: { decrement: 1 } } });
    }
    await releaseStock(sqlIn(tx), orderId);
    return true;
  });
}

/** Stripe expired the payment page: the order can no longer be paid. */
export function releaseOrder(orderId: string, sessionId: string) {
  return giveUpOrder(orderId, "expired", { stripeSessionId: sessionId });
}

/**
 * Marks the order paid exactly once, however many times and from however many
 * places it is called: the conditional update lets one caller through, and
 * that caller queues the emails in the same transaction. Money taken is
 * always honoured, even for an order given up meanwhile (then its code is
 * counted again). The session's PaymentIntent is kept: a refund is made against it.
 *
 * `paidCents` is what Stripe says the session took (its amount_total). When
 * it is not the order's total, the order is not marked paid, whatever the
 * event's signature: the difference is recorded on the order for the owner
 * (its page and the System page show it), counted, logged and reported
 * (decision 080). The page the shop opened always totals the order's figure,
 * so only a changed session (Stripe's dashboard, a bug, a forged test event)
 * gets here.
 */
export async function markOrderPaid(
  orderId: string,
  sessionId: string,
  paymentIntentId: string | null = null,
  paidCents: number | null = null,
): Promise<boolean> {
  // The emails' footer, from the cached settings, before any transaction.
  const settings = await shopSettings();
  // The common payment checks the amount in its own statement; anything else is looked at before the general path.
  if (await payUnpaidOrder(orderId, sessionId, paymentIntentId, paidCents, settings)) {
    metrics().ordersPaid.inc();
    return true;
  }
  if (paidCents !== null && (await paidAmountDiffers(orderId, sessionId, paidCents))) return false;
  const outcome = await inTransaction(async (tx): Promise<"paid" | "paid-and-refunded" | null> => {
    // With its PaymentIntent's refund event, one at a time: a refund that came first is kept for this payment.
    if (paymentIntentId) await lockPaymentIntent(sqlIn(tx), paymentIntentId);
    const before = await tx.order.findFirst({ where: { id: orderId, stripeSessionId: sessionId }, select: { paymentStatus: true } });
    // Paid already, or paid and since refunded: a late or repeated payment event changes nothing.
    if (!before || isTakenPayment(before.paymentStatus)) return null;
    const sql = sqlIn(tx);
    const paid = await payOrder(sql, { orderId, sessionId, paymentIntentId, from: before.paymentStatus });
    if (!paid) return null;
    await recordPaymentChange(sql, paid, before.paymentStatus, "paid");
    if (before.paymentStatus !== "unpaid") {
      console.warn(`Order ${orderId} was paid after it was ${before.paymentStatus}; it is fulfilled as paid`);
      if (paid.discountCode) await tx.discountCode.updateMany({ where: { code: paid.discountCode }, data: { usesHeld: { increment: 1 } } });
      await retakeStock(sql, orderId);
    }
    // Refunded at Stripe before this payment reached the shop: the customer hears of the refund, the kitchen of nothing.
    if (paymentIntentId && (await applyEarlyRefund(tx, orderId, paymentIntentId, settings))) return "paid-and-refunded";
    await enqueueEmails(sql, await paidOrderEmails(paid, settings));
    return "paid";
  });
  // Counted once the transaction has committed.
  if (outcome) metrics().ordersPaid.inc();
  if (outcome === "paid-and-refunded") metrics().ordersRefunded.inc();
  return outcome !== null;
}

/**
 * Whether Stripe took another amount than the order's total for `sessionId`;
 * if so, the first time it is heard of, recorded on the order (an audit
 * entry by "Stripe"), counted (shop_payment_failures_total{reason="paid_amount_mismatch"}),
 * logged and reported. An unknown order is left to the paths that handle one.
 */
async function paidAmountDiffers(orderId: string, sessionId: string, paidCents: number): Promise<boolean> {
  const order = await sqlDb().selectFrom("Order").select("totalCents").where("id", "=", orderId).executeTakeFirst();
  if (!order || order.totalCents === paidCents) return false;
  const recorded = await inTransaction(async (tx) => {
    // One record per session however often Stripe tells it, under a lock on the order's row.
    await sqlIn(tx).db.selectFrom("Order").select("id").where("id", "=", orderId).forUpdate().execute();
    const earlier = await tx.auditEntry.findMany({
      where: { action: "order.payment-mismatch", subjectType: "order", subjectId: orderId },
      select: { before: true, after: true },
    });
    if (earlier.some((entry) => paymentMismatchOf(entry)?.sessionId === sessionId)) return false;
    await recordAudit(tx, {
      actorEmail: "Stripe",
      action: "order.payment-mismatch",
      subjectType: "order",
      subjectId: orderId,
      before: { totalCents: order.totalCents },
      after: { paidCents, sessionId },
    });
    return true;
  });
  if (recorded) {
    metrics().paymentFailures.inc({ reason: "paid_amount_mismatch" });
    const problem = `Stripe reported ${formatCents(paidCents)} paid for order ${orderId}, whose total is ${formatCents(order.totalCents)}: not marked paid (Checkout Session ${sessionId})`;
    console.error(problem);
    reportError(new Error(problem), { source: "payment", route: "/webhooks/stripe" });
  }
  return true;
}

/** What an order's payment-mismatch record says: the order's total (its audit entry's `before`), what Stripe took and for which session (`after`). */
export type PaymentMismatch = { totalCents: number; paidCents: number; sessionId: string };

/** A payment-mismatch audit entry read back, as stored (JSON text) or as auditTrail gives it (parsed); null if it is not one. */
export function paymentMismatchOf(entry: { before: unknown; after: unknown }): PaymentMismatch | null {
  const read = (value: unknown): Record<string, unknown> => {
    const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  };
  const { totalCents } = read(entry.before);
  const { paidCents, sessionId } = read(entry.after);
  return typeof totalCents === "number" && typeof paidCents === "number" && typeof sessionId === "string" ? { totalCents, paidCents, sessionId } : null;
}

/** What the emails of a paid order read from it: RETURNING lists them, and its row type is checked against the emails' input. */
const PAID_ORDER_COLUMNS = [
  "id",
  // Who it goes to, and whatever else the customer wrote on the form: the kitchen's email says all of it.
  ...shippingFields,
  "subtotalCents",
  "discountCents",
  "discountCode",
  "shippingCents",
  "totalCents",
  "deliveryZone",
  "distanceTenths",
  "deliveryDate",
  "deliverySlotLabel",
  "createdAt",
] as const;

/** The paid order's two emails: the customer's confirmation (with the shop's postal address) and the kitchen's. */
const paidOrderEmails = (paid: PaidOrder, shop: ShopFooter) => Promise.all([orderConfirmationEmail(paid, shop), fulfilmentEmail(paid)]);

type PaidOrder = NonNullable<Awaited<ReturnType<typeof payOrder>>>;

/**
 * The one statement that pays an order, in the caller's transaction (both
 * payment paths): the order of `sessionId`, still `from`, becomes paid with
 * its PaymentIntent, and answers the row its emails are written from, its
 * lines included, or nothing when it was not `from` any more. With
 * `paidCents`, only when Stripe took its total; with `unlessRefunded`, only
 * when its PaymentIntent has no refund waiting. The row is typed by the
 * schema (Kysely, decision 083): a column an email reads and the statement
 * does not return fails the typecheck.
 */
async function payOrder(
  sql: Sql,
  given: { orderId: string; sessionId: string; paymentIntentId: string | null; from: PaymentStatus; paidCents?: number | null; unlessRefunded?: boolean },
) {
  const { orderId, sessionId, paymentIntentId, from, paidCents = null, unlessRefunded = false } = given;
  // As an ISO string: node-pg would write a Date in the process's time zone, which a `timestamp(3)` column drops (sql.server.ts).
  const now = at(new Date());
  return sql.db
    .with("paid", (db) =>
      db
        .updateTable("Order")
        .set({ paymentStatus: "paid", paidAt: now, paymentIntentId, updatedAt: now })
        .where("id", "=", orderId)
        .where("stripeSessionId", "=", sessionId)
        .where("paymentStatus", "=", from)
        .$if(paidCents !== null, (update) => update.where("totalCents", "=", paidCents ?? 0))
        .$if(unlessRefunded && paymentIntentId !== null, (update) =>
          update.where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("EarlyRefund")
                  .select("paymentIntentId")
                  .where("paymentIntentId", "=", paymentIntentId ?? ""),
              ),
            ),
          ),
        )
        .returning(PAID_ORDER_COLUMNS),
    )
    .selectFrom("paid")
    .selectAll("paid")
    .select((eb) =>
      jsonArrayFrom(
        eb.selectFrom("OrderItem").select(["name", "unitPriceCents", "quantity"]).whereRef("OrderItem.orderId", "=", "paid.id").orderBy("OrderItem.id"),
      ).as("items"),
    )
    .executeTakeFirst();
}

/**
 * The common payment, written with Kysely on the pool (decisions 068, 083,
 * 084): an unpaid order whose PaymentIntent has no refund waiting becomes
 * paid, joins its day's sales and queues its two emails; only when Stripe
 * took its total (`paidCents`, when known). Anything else (paid already,
 * given up before the payment came, a refund that came first) changes
 * nothing here and answers false: markOrderPaid's general path decides it,
 * with the same statements.
 */
async function payUnpaidOrder(orderId: string, sessionId: string, paymentIntentId: string | null, paidCents: number | null, shop: ShopFooter) {
  return transaction(async (tx) => {
    // With its PaymentIntent's refund event, one at a time.
    if (paymentIntentId) await lockPaymentIntent(tx, paymentIntentId);
    const paid = await payOrder(tx, { orderId, sessionId, paymentIntentId, from: "unpaid", paidCents, unlessRefunded: true });
    if (!paid) return false;
    await recordPaymentChange(tx, paid, "unpaid", "paid");
    await enqueueEmails(tx, await paidOrderEmails(paid, shop));
    return true;
  });
}

export type Verification = { verified: boolean; orderId: string | null };

/**
 * Asks Stripe about a session; a paid one (or a completed $0 one) fulfils its
 * order. `readPaid` reads the order when it is paid (null when not): an order
 * paid already (Stripe's webhook is usually first, and the page is reloaded)
 * records nothing and costs that one statement; otherwise the payment is
 * recorded and the order read again.
 */
async function settleCheckoutSession<T>(
  sessionId: string,
  readPaid: (orderId: string) => Promise<T | null>,
): Promise<{ orderId: string | null; paid: T | null }> {
  const session = await retrieveCheckoutSessionCached(sessionId);
  const orderId = session.metadata?.orderId ?? null;
  if (!orderId || !isCheckoutSessionPaid(session)) return { orderId, paid: null };
  const already = await readPaid(orderId);
  if (already !== null) return { orderId, paid: already };
  await markOrderPaid(orderId, session.id, paymentIntentIdOf(session), session.amount_total ?? null);
  return { orderId, paid: await readPaid(orderId) };
}

/** Whether a session's order is paid, settling it from Stripe's word first (verify-payment, the orphan sweep). */
export async function verifyPayment(sessionId: string): Promise<Verification> {
  const { orderId, paid } = await settleCheckoutSession(sessionId, async (id) => ((await paymentStatusOf(id)) === "paid" ? true : null));
  return { verified: paid !== null, orderId };
}

/** The confirmation page's order once its session is paid (settled as verifyPayment does), or null: for a paid order, one statement. */
export async function confirmedOrder(sessionId: string) {
  return (await settleCheckoutSession(sessionId, findPaidOrder)).paid;
}

/**
 * The confirmation page's order when this shop already knows its session is
 * paid (Stripe's webhook usually comes first, and the page is reloaded), or
 * null: one statement, no call to Stripe and nothing written. Knowing the
 * session id is what shows the page, as it is when Stripe is asked.
 */
export function knownPaidOrder(sessionId: string) {
  return paidOrderWhere("stripeSessionId", sessionId);
}

/** An order's payment status, or null when there is no such order (one statement: the confirmation page asks it each time, decision 068). */
async function paymentStatusOf(orderId: string) {
  const order = await sqlDb().selectFrom("Order").select("paymentStatus").where("id", "=", orderId).executeTakeFirst();
  return order?.paymentStatus ?? null;
}

/** A paid order as its confirmation page shows it, each line with its total (one statement: each visit reads it, decision 068). */
export function findPaidOrder(orderId: string) {
  return paidOrderWhere("id", orderId);
}

/** The paid order whose id, or whose Checkout Session, is `value`, as its confirmation page shows it: one statement. */
async function paidOrderWhere(column: "id" | "stripeSessionId", value: string) {
  const order = await sqlDb()
    .selectFrom("Order")
    .select(["id", "email", "totalCents", "createdAt", "deliveryDate", "deliverySlotLabel"])
    .select((eb) =>
      jsonArrayFrom(
        eb.selectFrom("OrderItem").select(["name", "quantity", "unitPriceCents"]).whereRef("OrderItem.orderId", "=", "Order.id").orderBy("OrderItem.id"),
      ).as("items"),
    )
    .where(column, "=", value)
    .where("paymentStatus", "=", "paid")
    .executeTakeFirst();
  if (!order) return null;
  const items = order.items.map(({ name, quantity, unitPriceCents }) => ({ name, quantity, lineCents: lineTotalCents(unitPriceCents, quantity) }));
  const { deliveryDate, deliverySlotLabel, ...rest } = order;
  // The day in words, as the page shows it; null for an order placed before delivery days.
  return { ...rest, items, delivery: orderDeliveryWhen({ deliveryDate, deliverySlotLabel }) };
}

/** What a browser needs about the order it is paying for in another tab. */
export function findPendingOrder(orderId: string) {
  return db.order.findUnique({
    where: { id: orderId },
    select: {
      id: true,
      paymentStatus: true,
      totalCents: true,
      stripeSessionId: true,
      stripeSessionUrl: true,
      ...shippingSelect,
      discountCode: true,
      items: { select: { productId: true, quantity: true } },
    },
  });
}

export type PendingOrder = NonNullable<Awaited<ReturnType<typeof findPendingOrder>>>;
