import { z } from "zod";
import { checkDelivery, zoneMinimumCents, type DeliveryCheck } from "~/delivery.server";
import { env } from "~/env.server";
import { formText } from "~/lib/forms.server";
import type { CartItem } from "~/lib/cart";
import {
  addressFields,
  describeShippingErrors,
  emailSchema,
  shippingSchema,
  type FieldErrors,
  type ShippingField,
} from "~/lib/checkout-form";
import { messages, zoneMinimumMessage, type Message } from "~/lib/messages";
import { CheckoutProblem, placeOrder } from "~/orders.server";
import { checkDiscountCode, normalizeCode, priceOrder, type AppliedDiscount } from "~/pricing.server";

/**
 * The checkout page's one form and its intents (DESIGN.md §4): apply and
 * remove a discount, check delivery, place the order. Without JavaScript the
 * applied code and the checked address travel in hidden fields; the server
 * re-checks both on every post, so nothing the browser sends is trusted.
 */

export const checkoutIntents = ["apply-discount", "remove-discount", "check-delivery", "place-order"] as const;
export type CheckoutIntent = (typeof checkoutIntents)[number];

const shippingKeys: ShippingField[] = ["firstName", "lastName", "email", "phone", "address", "city", "state", "zipCode"];

export type CheckoutValues = Record<ShippingField | "code", string>;

export type CheckedDelivery = DeliveryCheck & { addressKey: string };

export type CheckoutResult = {
  values: CheckoutValues;
  fieldErrors: FieldErrors;
  message: Message | null;
  discount: AppliedDiscount | null;
  delivery: CheckedDelivery | null;
  /** The admin test address was entered: show the test card. */
  testCard: boolean;
  /** The order was placed: the payment page to open. */
  paymentUrl?: string;
};

export function addressKey(values: Pick<CheckoutValues, (typeof addressFields)[number]>) {
  return addressFields.map((field) => values[field].trim().toLowerCase().replace(/\s+/g, " ")).join("|");
}

export function parseIntent(formData: FormData): CheckoutIntent | null {
  const intent = formData.get("intent");
  return checkoutIntents.find((known) => known === intent) ?? null;
}

export async function handleCheckout(
  intent: CheckoutIntent,
  formData: FormData,
  cartItems: CartItem[],
  origin: string,
): Promise<{ result: CheckoutResult; status: number }> {
  const values = Object.fromEntries([...shippingKeys, "code"].map((key) => [key, formText(formData, key)])) as CheckoutValues;
  const result: CheckoutResult = {
    values,
    fieldErrors: {},
    message: null,
    discount: null,
    delivery: null,
    testCard: Boolean(env.TEST_CHECKOUT_EMAIL) && values.email.trim().toLowerCase() === env.TEST_CHECKOUT_EMAIL?.toLowerCase(),
  };
  const respond = (status = 200) => ({ result, status });

  // Carry the applied code and the delivery result forward, re-checked.
  const appliedCode = formText(formData, "appliedCode");
  if (appliedCode && intent !== "remove-discount") {
    const checked = await checkDiscountCode(appliedCode, values.email);
    if (checked.valid) result.discount = checked;
  }
  const key = addressKey(values);
  const checkedKey = formText(formData, "checkedAddress");
  if (checkedKey && checkedKey === key && intent !== "check-delivery") {
    result.delivery = { ...(await checkDelivery(values)), addressKey: key };
  }

  switch (intent) {
    case "remove-discount":
      result.values.code = "";
      result.message = messages.discountRemoved;
      return respond();

    case "apply-discount": {
      const email = emailSchema.safeParse(values.email);
      if (!email.success) {
        result.fieldErrors.email = email.error.issues[0]?.message;
        result.message = values.email.trim() ? messages.invalidEmail : messages.emailBeforeCode;
        return respond(400);
      }
      if (!normalizeCode(values.code)) {
        result.fieldErrors.code = "Enter a code";
        result.message = messages.enterCode;
        return respond(400);
      }
      const checked = await checkDiscountCode(values.code, values.email);
      if (!checked.valid) {
        result.fieldErrors.code = checked.error;
        result.message = { title: "Invalid Code", description: checked.error, destructive: true };
        return respond(400);
      }
      result.discount = checked;
      result.values.code = checked.code;
      result.message = { title: "Discount Applied!", description: `${checked.code}: ${checked.description}.` };
      return respond();
    }

    case "check-delivery":
      return checkAddress(result, cartItems, key);

    case "place-order": {
      const shipping = shippingSchema.safeParse(values);
      if (!shipping.success) {
        const { fieldErrors, message } = describeShippingErrors(shipping.error);
        result.fieldErrors = fieldErrors;
        result.message = message;
        return respond(400);
      }
      // The delivery check is required once: until then, submitting performs it.
      if (!result.delivery) return checkAddress(result, cartItems, key);
      try {
        const placed = await placeOrder({
          items: cartItems,
          shipping: shipping.data,
          discountCode: result.discount?.code ?? null,
          origin,
        });
        result.paymentUrl = placed.url;
        return respond();
      } catch (error) {
        if (!(error instanceof CheckoutProblem)) throw error;
        result.message = error.problem;
        if (error.delivery) result.delivery = { ...error.delivery, addressKey: key };
        return respond(error.status);
      }
    }
  }
}

async function checkAddress(result: CheckoutResult, cartItems: CartItem[], key: string) {
  const missing = addressFields.filter((field) => !result.values[field].trim());
  if (missing.length > 0) {
    for (const field of missing) result.fieldErrors[field] = "Required";
    result.message = messages.completeAddress;
    return { result, status: 400 };
  }
  const zip = z.string().regex(/^\d{5}(-\d{4})?$/).safeParse(result.values.zipCode.trim());
  if (!zip.success) {
    result.fieldErrors.zipCode = "Enter a 5-digit ZIP code";
    result.message = messages.completeAddress;
    return { result, status: 400 };
  }

  const delivery = await checkDelivery(result.values);
  result.delivery = { ...delivery, addressKey: key };
  if (!delivery.isWithinRange) {
    result.message = delivery.error ? messages.deliveryError : messages.outsideArea;
    return { result, status: 200 };
  }
  const { subtotalCents } = await priceOrder(cartItems, null);
  const minimum = zoneMinimumCents(delivery);
  result.message =
    subtotalCents < minimum
      ? zoneMinimumMessage(minimum)
      : {
          title: "Delivery Available!",
          description: `Great news: you're ${delivery.distance?.toFixed(1)} miles from our kitchen, in our ${delivery.deliveryZone} delivery zone.`,
        };
  return { result, status: 200 };
}
