import { formatCents } from "~/lib/money";

/**
 * The cart's rules (spec §4, §5, §9), shared by the /cart action and the
 * browser's optimistic rendering so both always agree. Pure: no I/O, no React.
 */

export const MAX_LINE_QUANTITY = 99;
export const MINIMUM_ORDER_CENTS = 2000;
export const SHIPPING_CENTS = 1000;
export const FREE_SHIPPING_THRESHOLD_CENTS = 5000;

/** What the cart cookie and local storage hold: ids and quantities, never prices. */
export type CartItem = { productId: string; quantity: number };

export type CartChange =
  | { intent: "add"; productId: string; quantity: number }
  | { intent: "update"; productId: string; quantity: number }
  | { intent: "remove"; productId: string }
  | { intent: "clear" };

export type CartChangeResult =
  | { ok: true; items: CartItem[] }
  | { ok: false; error: string };

/**
 * Applies one change. Adding merges into an existing line; updating to 0 or
 * less removes the line; a line never holds more than MAX_LINE_QUANTITY.
 * Unknown products are the caller's concern (it knows the catalogue).
 */
export function applyCartChange(
  items: readonly CartItem[],
  change: CartChange,
): CartChangeResult {
  switch (change.intent) {
    case "add": {
      const existing = items.find((item) => item.productId === change.productId);
      const quantity = (existing?.quantity ?? 0) + change.quantity;
      if (quantity > MAX_LINE_QUANTITY) {
        return { ok: false, error: tooManyMessage() };
      }
      if (existing) {
        return {
          ok: true,
          items: items.map((item) =>
            item.productId === change.productId ? { ...item, quantity } : item,
          ),
        };
      }
      return { ok: true, items: [...items, { productId: change.productId, quantity }] };
    }
    case "update": {
      if (change.quantity <= 0) {
        return { ok: true, items: items.filter((item) => item.productId !== change.productId) };
      }
      if (change.quantity > MAX_LINE_QUANTITY) {
        return { ok: false, error: tooManyMessage() };
      }
      return {
        ok: true,
        items: items.map((item) =>
          item.productId === change.productId ? { ...item, quantity: change.quantity } : item,
        ),
      };
    }
    case "remove":
      return { ok: true, items: items.filter((item) => item.productId !== change.productId) };
    case "clear":
      return { ok: true, items: [] };
  }
}

function tooManyMessage() {
  return `You can order up to ${MAX_LINE_QUANTITY} of one product at a time.`;
}

export type PricedLine = { priceCents: number; quantity: number };

export type CartTotals = {
  itemCount: number;
  subtotalCents: number;
  shippingCents: number;
  meetsMinimum: boolean;
  /** How much more is needed to reach the minimum order; 0 once it is met. */
  remainingCents: number;
};

export function cartTotals(lines: readonly PricedLine[]): CartTotals {
  const itemCount = lines.reduce((sum, line) => sum + line.quantity, 0);
  const subtotalCents = lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
  return {
    itemCount,
    subtotalCents,
    shippingCents: shippingFor(subtotalCents),
    meetsMinimum: subtotalCents >= MINIMUM_ORDER_CENTS,
    remainingCents: Math.max(0, MINIMUM_ORDER_CENTS - subtotalCents),
  };
}

/** Flat shipping, free from the threshold up (checkout applies "50 or more", spec §9). */
export function shippingFor(subtotalCents: number): number {
  return subtotalCents >= FREE_SHIPPING_THRESHOLD_CENTS ? 0 : SHIPPING_CENTS;
}

/**
 * "Add $X.XX for free shipping" while a cart below the free-shipping threshold
 * pays for shipping; null once shipping is free, and for an empty cart, which
 * ships nothing and has its own message. Judged on the subtotal, as shipping is.
 */
export function freeShippingHint(subtotalCents: number): string | null {
  if (subtotalCents <= 0 || shippingFor(subtotalCents) === 0) return null;
  return `Add ${formatCents(FREE_SHIPPING_THRESHOLD_CENTS - subtotalCents)} for free shipping`;
}

/** A discount of `basisPoints` (1000 = 10%) on the subtotal: round to the cent, half up, in integers. */
export function discountCentsFor(subtotalCents: number, basisPoints: number) {
  return Math.floor((subtotalCents * basisPoints + 5000) / 10000);
}
