import { MINIMUM_ORDER_CENTS } from "~/lib/cart";
import { DELIVERY_RADIUS_MILES } from "~/lib/delivery-zones";
import { formatCents, formatWholeDollars } from "~/lib/money";

/**
 * The texts the spec gives for outcomes (spec §5, §8), in one place so pages,
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
  outsideArea: {
    title: "Outside Delivery Area",
    description: `You're outside our ${DELIVERY_RADIUS_MILES}-mile delivery area. Please contact us directly to arrange delivery.`,
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
  paymentConfirmed: { title: "Payment Confirmed!", description: "Thank you! Your order is on its way to our kitchen." },
} satisfies Record<string, Message>;

export function minimumOrderMessage(remainingCents: number): Message {
  return {
    title: "Minimum Order Required",
    description: `Minimum order amount is ${formatCents(MINIMUM_ORDER_CENTS)}. Please add ${formatCents(remainingCents)} more to your cart.`,
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
