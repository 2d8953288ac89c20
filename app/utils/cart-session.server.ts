import { createCookieSessionStorage, type Session } from "@remix-run/node";
import { secureCookies, sessionSecret } from "~/utils/env.server";
import { MAX_LINE_QUANTITY, type CartItem } from "~/lib/cart";
import { cartItemsSchema, type CartFlash } from "~/models/cart.server";
import { findPendingOrder } from "~/models/orders.server";
import { isTakenPayment } from "~/lib/orders";

/**
 * The cart lives in a signed cookie so it works without JavaScript and on any
 * server instance. It holds product ids and quantities only.
 */

type CartSessionData = {
  items: CartItem[];
  /** The order this browser placed and is paying for (in another tab, or after a redirect). */
  pendingOrderId: string;
  /** The last order this browser placed, kept once it is paid: a stale tab is told it is paid. */
  placedOrderId: string;
};
type CartFlashData = {
  flash: CartFlash;
  /** The given-up order whose details refill the checkout form on the next view. */
  restoreOrderId: string;
};

const storage = createCookieSessionStorage<CartSessionData, CartFlashData>({
  cookie: {
    name: "chillpb_cart",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: secureCookies,
    secrets: [sessionSecret],
    maxAge: 60 * 60 * 24 * 30,
  },
});

export type CartSession = Session<CartSessionData, CartFlashData>;

export function getCartSession(request: Request) {
  return readCartSession(request.headers.get("Cookie"));
}

/** The cart in a request's Cookie header. */
export async function readCartSession(cookie: string | null) {
  const session = await storage.getSession(cookie);
  const parsed = cartItemsSchema.safeParse(session.get("items") ?? []);
  return {
    session,
    items: parsed.success ? parsed.data : [],
    /** False when the server holds no cart for this visitor (never given one, or emptied): only then may the browser's saved copy be restored. */
    known: session.has("items"),
  };
}

/**
 * The cart cookie to send. A cart with nothing in it (no items, no order
 * being paid or just placed, no flash) deletes the cookie instead of writing
 * an empty one for 30 days: a visitor without the cookie gets the cached
 * pages (an emptied cart used to keep every page rendered for a month).
 */
export function commitCartSession(session: CartSession) {
  const empty =
    (session.get("items") ?? []).length === 0 &&
    !session.has("pendingOrderId") &&
    !session.has("placedOrderId") &&
    !session.has("flash") &&
    !session.has("restoreOrderId");
  return empty ? storage.destroySession(session) : storage.commitSession(session);
}

/** Puts a given-up order's items back into an empty cart (merged, capped). */
export function refillCart(session: CartSession, items: CartItem[], from: CartItem[]) {
  if (items.length > 0) return items;
  const merged = new Map<string, number>();
  for (const item of from) merged.set(item.productId, Math.min(MAX_LINE_QUANTITY, (merged.get(item.productId) ?? 0) + item.quantity));
  const refilled = [...merged].map(([productId, quantity]) => ({ productId, quantity }));
  session.set("items", refilled);
  return refilled;
}

/**
 * Placing an order empties the cart while the customer pays. Once that order
 * is paid the note is dropped; once it is given up (the payment page expired
 * or was cancelled) its items come back into the empty cart by themselves.
 * Returns the cart's items and whether the cookie must be written again.
 */
export async function settlePendingOrder(session: CartSession, items: CartItem[]) {
  const pendingId = session.get("pendingOrderId");
  if (!pendingId) return { items, changed: false };
  const order = await findPendingOrder(pendingId);
  if (order?.paymentStatus === "unpaid") return { items, changed: false };
  session.unset("pendingOrderId");
  // Paid (or paid and already refunded): its items were bought, they do not come back.
  if (!order || isTakenPayment(order.paymentStatus)) return { items, changed: true };
  return { items: refillCart(session, items, order.items), changed: true };
}
