/**
 * The cart's rules (requirements §4, §5), shared by the /cart action and the
 * browser's optimistic rendering so both always agree: which lines, how many
 * of each. Pure: no I/O, no React. No money: every figure is decided by
 * app/models/pricing.server.ts, on the owner's terms (app/lib/shop-settings.ts),
 * and only rendered by the browser.
 */

export const MAX_LINE_QUANTITY = 99;

/** The header's cart button, as a screen reader names it. */
export function cartButtonLabel(count: number) {
  return `Open cart, ${count} ${count === 1 ? "item" : "items"}`;
}

/** What the cart cookie and local storage hold: ids and quantities, never prices. */
export type CartItem = { productId: string; quantity: number };

export type CartChange =
  | { intent: "add"; productId: string; quantity: number }
  | { intent: "update"; productId: string; quantity: number }
  | { intent: "remove"; productId: string }
  | { intent: "clear" };

export type CartChangeResult = { ok: true; items: CartItem[] } | { ok: false; error: string };

/**
 * Applies one change. Adding merges into an existing line; updating to 0 or
 * less removes the line; a line never holds more than MAX_LINE_QUANTITY.
 * Unknown products are the caller's concern (it knows the catalogue).
 */
export function applyCartChange(items: readonly CartItem[], change: CartChange): CartChangeResult {
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
          items: items.map((item) => (item.productId === change.productId ? { ...item, quantity } : item)),
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
        items: items.map((item) => (item.productId === change.productId ? { ...item, quantity: change.quantity } : item)),
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
