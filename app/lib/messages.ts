import { brand } from "~/lib/brand";
import { formatCents, formatWholeDollars } from "~/lib/money";

/**
 * The texts the spec gives for outcomes (requirements §5, §8), in one place so pages,
 * functions and tests say exactly the same thing.
 */
export type Message = { title: string; description: string; destructive?: boolean };

export const messages = {
  missingInformation: { title: "Missing Information", description: "Please fill in all required fields.", destructive: true },
  invalidEmail: { title: "Invalid Email", description: "Please enter a valid email address.", destructive: true },
  checkDetails: { title: "Check Your Details", description: "Please correct the highlighted fields.", destructive: true },
  enterCode: { title: "Enter Code", description: "Please enter a discount code.", destructive: true },
  emailBeforeCode: { title: "Enter Your Email", description: "Please enter your email before applying a discount code.", destructive: true },
  discountRemoved: { title: "Discount Removed", description: "The discount code has been removed." },
  completeAddress: {
    title: "Complete Address Required",
    description: "Please fill in your complete address to check delivery availability.",
    destructive: true,
  },
  deliveryError: {
    title: "Error",
    description: "Could not verify delivery distance. Please contact us if you're unsure about delivery availability.",
    destructive: true,
  },
  checkoutError: { title: "Checkout Error", description: "There was an error processing your order. Please try again.", destructive: true },
  checkoutCancelled: {
    title: "Checkout Cancelled",
    description: "Your order was not completed. Your cart has been saved.",
    destructive: true,
  },
  verificationError: {
    title: "Verification Error",
    description: "There was an issue verifying your order. Please contact support.",
    destructive: true,
  },
  discountCheckFailed: { title: "Error", description: "Could not validate discount code. Please try again.", destructive: true },
  /** An in-page request that got no answer, where the spec names no message of its own. */
  requestFailed: {
    title: "Please try again",
    description: "We could not reach the shop just now. Nothing you typed is lost.",
    destructive: true,
  },
  paymentConfirmed: { title: "Payment Confirmed!", description: "Thank you! Your order is on its way to our kitchen." },
  orderConfirmedNoPayment: {
    title: "Order Confirmed!",
    description: "It's on the house: no payment was needed. Your order is on its way to our kitchen.",
  },
} satisfies Record<string, Message>;

/** A cart change the shop refused (its reason) or never answered. */
export function cartChangeFailed(intent: string, reason: string | null): Message {
  return {
    title: intent === "add" ? "Not added to cart" : "Cart not updated",
    description: reason ?? "We could not reach the shop just now. Please check your connection and try again.",
    destructive: true,
  };
}

/** What the cart's action answers when the catalogue cannot be read. */
export const cartUnavailable = "We could not update your cart just now. Please try again.";

/** The owner's radius (app/lib/shop-settings.ts deliveryRadiusMiles). */
export function outsideAreaMessage(radiusMiles: number): Message {
  return {
    title: "Outside Delivery Area",
    description: `You're outside our ${radiusMiles}-mile delivery area. Please contact us directly to arrange delivery.`,
    destructive: true,
  };
}

export function minimumOrderMessage(minimumCents: number, remainingCents: number): Message {
  return {
    title: "Minimum Order Required",
    description: `Minimum order amount is ${formatCents(minimumCents)}. Please add ${formatCents(remainingCents)} more to your cart.`,
    destructive: true,
  };
}

export function zoneMinimumMessage(minimumCents: number): Message {
  return {
    title: "Minimum Order Not Met",
    description: `Your delivery zone requires a minimum order of ${formatWholeDollars(minimumCents)}. Please add more items to your cart.`,
    destructive: true,
  };
}

/**
 * The newsletter sign-up's outcomes (requirements §2). Here, not beside its
 * schema: the landing page shows them in the browser, and the schema's
 * module would bring the validation library into the page's scripts.
 */
export const newsletterMessages = {
  welcome: { title: `Welcome to ${brand.name}! 🎉`, description: "Check your email for your 10% off code: WELCOME10!" },
  failed: { title: "Something went wrong", description: "Please try again or contact us directly.", destructive: true },
} satisfies Record<string, Message>;

/** The partnership inquiry's outcomes (requirements §2), here for the same reason. */
export const partnershipMessages = {
  sent: { title: "Message Sent!", description: "Thank you for your interest! We'll be in touch soon." },
  failed: {
    title: "Error Sending Message",
    description: "There was an issue sending your message. Please try again.",
    destructive: true,
  },
  invalidText: {
    title: "Check Your Details",
    description: "Please keep your name and business name on a single line.",
    destructive: true,
  },
} satisfies Record<string, Message>;
