import { getZodConstraint } from "@conform-to/zod";
import { type z } from "zod";
import { checkDelivery, type DeliveryCheck } from "~/models/delivery.server";
import { shortOrderId } from "~/lib/orders";
import { env } from "~/utils/env.server";
import { formText } from "~/utils/forms.server";
import type { CartItem } from "~/lib/cart";
import { addressFields, addressSchema, shippingSchema, type FieldErrors } from "~/lib/checkout-form";
import { shippingFields, type ShippingField } from "~/lib/shipping-fields";
import { DISCOUNT_CODE_MAX_LENGTH } from "~/lib/discount-code";
import { describeFormErrors, firstFieldErrors, parseDecimalInteger } from "~/lib/forms";
import { canonicalMailbox, emailSchema, normalizeEmail } from "~/lib/email";
import { formatCents } from "~/lib/money";
import { messages, outsideAreaMessage, zoneMinimumMessage, type Message } from "~/lib/messages";
import { placeOrder, type PendingOrder } from "~/models/orders.server";
import { shopSettings } from "~/models/catalog.server";
import { deliveryDatesFor, pickDelivery } from "~/models/delivery-days.server";
import { deliveryOption, parseDeliveryOption, type OfferedDate } from "~/lib/delivery-schedule";
import { checkDiscountCode, normalizeCode, type AppliedDiscount } from "~/models/pricing.server";
import { summarize, type CheckoutSummary } from "~/routes/checkout/summary.server";
import { draftToForm, type CheckoutDraft } from "~/utils/checkout-draft.server";

/**
 * The checkout page's one form and its intents (docs/architecture.md §4): apply and
 * remove a discount, check delivery, place the order, and refresh (the page
 * asks again after the email, address or code changed). Every answer carries
 * the order summary as the server priced it (summary.server.ts): the page
 * renders that and never computes money itself. The applied code and the checked address travel in
 * hidden fields and are re-checked on every post.
 */

const checkoutIntents = ["apply-discount", "remove-discount", "check-delivery", "place-order", "refresh", "remove-sold-out"] as const;
export type CheckoutIntent = (typeof checkoutIntents)[number];

export type CheckoutValues = Record<ShippingField | "code", string>;

export type CheckedDelivery = DeliveryCheck & { addressKey: string };

export type PlacedOrder = { orderId: string; shortId: string; totalCents: number; paymentUrl: string };

/** An order still waiting for payment, offered for cancelling: its page's URL is null while the order is still being placed. */
export type OpenPayment = Omit<PlacedOrder, "paymentUrl"> & { paymentUrl: string | null };

/** What the page shows of an order that can still be paid. */
export function openPaymentOf(order: PendingOrder): OpenPayment {
  return { orderId: order.id, shortId: shortOrderId(order.id), totalCents: order.totalCents, paymentUrl: order.stripeSessionUrl };
}

export type CheckoutState = {
  values: CheckoutValues;
  fieldErrors: FieldErrors;
  message: Message | null;
  discount: AppliedDiscount | null;
  delivery: CheckedDelivery | null;
  summary: CheckoutSummary;
  /** The admin test address was entered: show the test card. */
  testCard: boolean;
  /** The order was placed: where to pay. */
  placed?: PlacedOrder;
  /** Once the address is in the area: the days on offer for its zone (decision 100), and the one chosen ("2026-12-03/morning"). */
  deliveryDates: OfferedDate[] | null;
  deliveryDay: string | null;
};

/** ok: done; invalid: the customer has something to correct; provider-failed: Stripe could not be reached. */
export type CheckoutOutcome = "ok" | "invalid" | "provider-failed";

export function addressKey(values: Pick<CheckoutValues, (typeof addressFields)[number]>) {
  return addressFields.map((field) => values[field].trim().toLowerCase().replace(/\s+/g, " ")).join("|");
}

export function parseIntent(formData: FormData): CheckoutIntent | null {
  const intent = formData.get("intent");
  return checkoutIntents.find((known) => known === intent) ?? null;
}

type Working = Omit<CheckoutState, "summary">;

/** The shipping fields' constraints, from shippingSchema; the loader sends them to the page. */
export const shippingConstraints = getZodConstraint(shippingSchema);

/** `heldCode`: the code an order of this cart still holds while it can be paid (the form shown beside the offer to cancel it). */
export async function handleCheckout(
  intent: CheckoutIntent,
  formData: FormData,
  cartItems: CartItem[],
  origin: string,
  { heldCode }: { heldCode?: string } = {},
): Promise<{ state: CheckoutState; outcome: CheckoutOutcome }> {
  const values = Object.fromEntries([...shippingFields, "code"].map((key) => [key, formText(formData, key)])) as CheckoutValues;
  const email = emailSchema.safeParse(values.email);
  const mailbox = email.success ? canonicalMailbox(email.data) : null;
  const state: Working = {
    values,
    fieldErrors: {},
    message: null,
    discount: null,
    delivery: null,
    testCard: env.TEST_CHECKOUT_EMAIL !== undefined && normalizeEmail(values.email) === normalizeEmail(env.TEST_CHECKOUT_EMAIL),
    deliveryDates: null,
    deliveryDay: null,
  };
  const wantedDay = formText(formData, "deliveryDay", 60);
  const finish = async (outcome: CheckoutOutcome = "ok") => {
    if (state.delivery?.ok && !state.deliveryDates) Object.assign(state, await offerDays(state.delivery.zone, wantedDay));
    return { state: { ...state, summary: await summarize(cartItems, state) }, outcome };
  };

  // The applied code, re-checked for the current email and cart: one that
  // stopped applying is removed, and the customer is told why.
  let removed: Message | null = null;
  const appliedCode = formText(formData, "appliedCode", DISCOUNT_CODE_MAX_LENGTH);
  if (appliedCode && intent !== "remove-discount") {
    const checked = await checkDiscountCode(appliedCode, mailbox, { holdsUse: normalizeCode(appliedCode) === heldCode, items: cartItems });
    if (checked.ok) state.discount = checked.discount;
    else removed = { title: "Discount Removed", description: checked.error, destructive: true };
  }
  const key = addressKey(values);
  const checkedKey = formText(formData, "checkedAddress");
  if (checkedKey && checkedKey === key && intent !== "check-delivery") {
    state.delivery = { ...(await checkDelivery(values)), addressKey: key };
  }
  state.message = removed;

  switch (intent) {
    case "refresh":
      return finish();

    case "remove-sold-out":
      // The route has already taken them out of the cart.
      state.message = { title: "Cart Updated", description: "We removed the sold-out items from your cart." };
      return finish();

    case "remove-discount":
      state.values.code = "";
      state.message = messages.discountRemoved;
      return finish();

    case "apply-discount":
      return finish(await applyTypedCode(state, email, mailbox, cartItems));

    case "check-delivery":
      return checkAddress(state, key, finish);

    case "place-order": {
      const shipping = shippingSchema.safeParse(values);
      if (!shipping.success) {
        const { fieldErrors, message } = describeFormErrors(shipping.error);
        state.fieldErrors = fieldErrors;
        state.message = message;
        return finish("invalid");
      }
      // Nothing is charged at a total the customer has not seen.
      if (removed) return finish("invalid");
      const typed = normalizeCode(values.code);
      if (typed && typed !== state.discount?.code) {
        const applied = await applyTypedCode(state, email, mailbox, cartItems);
        if (applied !== "ok") return finish(applied);
        const result = await finish();
        result.state.message = {
          title: "Discount Applied!",
          description: `${typed}: ${state.discount!.description}. Your total is now ${formatCents(result.state.summary.totalCents)}: press Place Order to pay.`,
        };
        return result;
      }
      // The delivery check is required once: until then, submitting performs it.
      if (!state.delivery) return checkAddress(state, key, finish);
      // A day chosen that is no longer on offer (taken meanwhile) is said, with the days that are; nothing is placed.
      if (state.delivery.ok) {
        Object.assign(state, await offerDays(state.delivery.zone, wantedDay));
        if (wantedDay && state.deliveryDay !== wantedDay) return finish(dayUnavailable(state));
      }

      const quoted = parseDecimalInteger(formText(formData, "quotedTotalCents", 12));
      const placed = await placeOrder({
        items: cartItems,
        shipping: shipping.data,
        discountCode: state.discount?.code ?? null,
        origin,
        expectedTotalCents: quoted ?? undefined,
        deliveryDay: (state.deliveryDay && parseDeliveryOption(state.deliveryDay)) || undefined,
      });
      if (placed.ok) {
        state.placed = { orderId: placed.orderId, shortId: shortOrderId(placed.orderId), totalCents: placed.totalCents, paymentUrl: placed.url };
        return finish();
      }
      state.message = placed.message;
      if (placed.delivery) state.delivery = { ...placed.delivery, addressKey: key };
      if (placed.refusal === "delivery-day" && state.delivery?.ok) {
        // Taken by other checkouts while this one was placed: the days on offer now, the earliest chosen.
        Object.assign(state, await offerDays(state.delivery.zone, null));
        state.fieldErrors.deliveryDay = placed.message.description;
      }
      if (placed.refusal === "invalid-code" || placed.refusal === "code-unavailable") {
        state.discount = null;
        state.fieldErrors.code = placed.message.description;
      }
      return finish(placed.refusal === "payment-provider" ? "provider-failed" : "invalid");
    }
  }
}

/**
 * The days on offer for the address's zone, and the one chosen: the day
 * asked for while it is on offer with room, else the earliest (and its first
 * window with room); none when no day is open.
 */
async function offerDays(zone: string, wanted: string | null): Promise<Pick<CheckoutState, "deliveryDates" | "deliveryDay">> {
  const { delivery: schedule } = await shopSettings();
  const deliveryDates = await deliveryDatesFor(schedule, zone);
  const asked = wanted ? parseDeliveryOption(wanted) : null;
  const chosen = (asked && pickDelivery(deliveryDates, asked)) ?? pickDelivery(deliveryDates, {});
  return { deliveryDates, deliveryDay: chosen && deliveryOption(chosen.date, chosen.slot) };
}

/** The day asked for is no longer on offer: the customer chooses again from the days that are. */
function dayUnavailable(state: Working): CheckoutOutcome {
  state.message = {
    title: "Delivery Day Unavailable",
    description: "That delivery day is no longer available. Please choose another day.",
    destructive: true,
  };
  state.fieldErrors.deliveryDay = state.message.description;
  return "invalid";
}

/** Applies the code typed in the code field for this email. */
async function applyTypedCode(
  state: Working,
  email: z.SafeParseReturnType<string, string>,
  mailbox: string | null,
  cartItems: CartItem[],
): Promise<CheckoutOutcome> {
  if (!email.success) {
    state.fieldErrors.email = email.error.issues[0]?.message;
    state.message = state.values.email.trim() ? messages.invalidEmail : messages.emailBeforeCode;
    return "invalid";
  }
  if (!normalizeCode(state.values.code)) {
    state.fieldErrors.code = "Enter a code";
    state.message = messages.enterCode;
    return "invalid";
  }
  const checked = await checkDiscountCode(state.values.code, mailbox, { items: cartItems });
  if (!checked.ok) {
    state.fieldErrors.code = checked.error;
    state.message = { title: "Invalid Code", description: checked.error, destructive: true };
    return "invalid";
  }
  state.discount = checked.discount;
  state.values.code = "";
  state.message = { title: "Discount Applied!", description: `${checked.discount.code}: ${checked.discount.description}.` };
  return "ok";
}

/** Performs the delivery check; the zone minimum is judged on the summary `finish` prices anyway. */
async function checkAddress(state: Working, key: string, finish: (outcome?: CheckoutOutcome) => Promise<{ state: CheckoutState; outcome: CheckoutOutcome }>) {
  const address = addressSchema.safeParse(state.values);
  if (!address.success) {
    Object.assign(state.fieldErrors, firstFieldErrors(address.error));
    state.message = messages.completeAddress;
    return finish("invalid");
  }

  const delivery = await checkDelivery(state.values);
  state.delivery = { ...delivery, addressKey: key };
  if (!delivery.ok) {
    state.message = delivery.reason === "outside-area" ? outsideAreaMessage(delivery.radiusMiles) : messages.deliveryError;
    return finish();
  }
  state.message = {
    title: "Delivery Available!",
    description: `Great news: you're ${delivery.miles.toFixed(1)} miles from our kitchen, in our ${delivery.zone} delivery zone.`,
  };
  const result = await finish();
  const { zoneMinimumCents: minimum, zoneRemainingCents } = result.state.summary;
  if (minimum !== null && zoneRemainingCents > 0) result.state.message = zoneMinimumMessage(minimum);
  return result;
}

/** The form as the customer left it for the payment page: the order's details, its code, its address checked. */
export function draftFromOrder(order: PendingOrder): CheckoutDraft {
  const draft: CheckoutDraft = Object.fromEntries(shippingFields.map((key) => [key, order[key] ?? ""]));
  if (order.discountCode) draft.appliedCode = order.discountCode;
  draft.checkedAddress = addressKey(order);
  return draft;
}

/** The checkout as a draft left it: the form filled, the code and the delivery re-checked. */
export async function resumeCheckout(draft: CheckoutDraft, cartItems: CartItem[], origin: string) {
  const { state } = await handleCheckout("refresh", draftToForm(draft), cartItems, origin);
  return state;
}

/**
 * The checkout of an order that can still be paid, as its customer left it:
 * its cart and details, its code applied (the use the order holds counts as
 * the customer's own), for the page that offers to cancel its payment.
 */
export async function checkoutOfOpenOrder(order: PendingOrder, origin: string) {
  const { state } = await handleCheckout("refresh", draftToForm(draftFromOrder(order)), order.items, origin, {
    heldCode: order.discountCode ?? undefined,
  });
  return state;
}

/** The draft that goes on from this answer: what was typed, the code applied and the address checked. */
export function draftOf(state: CheckoutState): CheckoutDraft {
  return { ...state.values, appliedCode: state.discount?.code ?? "", checkedAddress: state.delivery?.addressKey ?? "", deliveryDay: state.deliveryDay ?? "" };
}

/** The opening state of the page: an empty form and the summary (which says at once what the $20 minimum still needs). */
export async function openCheckout(cartItems: CartItem[]): Promise<CheckoutState> {
  const values = Object.fromEntries([...shippingFields, "code"].map((key) => [key, key === "state" ? "CA" : ""])) as CheckoutValues;
  const summary = await summarize(cartItems, { discount: null, delivery: null });
  return {
    values,
    fieldErrors: {},
    message: null,
    discount: null,
    delivery: null,
    summary,
    testCard: false,
    deliveryDates: null,
    deliveryDay: null,
  };
}
