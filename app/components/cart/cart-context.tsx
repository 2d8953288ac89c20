import { useFetcher, useRouteLoaderData } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useToast } from "~/components/toaster";
import { CART_STORAGE_KEY } from "~/lib/brand";
import { applyCartChange, type CartChange, type CartItem } from "~/lib/cart";
import { cartChangeFailed } from "~/lib/messages";
import { isRequestFailed, type RequestFailed } from "~/lib/request-failure";
import type { RootLoader } from "~/root";

/**
 * The cart as the page shows it: the server's cart (root loader) plus the
 * changes still on their way, so every click shows at once (optimistic UI).
 * Only the lines and their quantities are optimistic: every money figure is
 * the server's (`price`, app/models/pricing.server.ts), and while a change is
 * on its way the page says the figures are updating instead of guessing them.
 *
 * Changes are sent one at a time: the cart is a cookie, and two requests in
 * flight together would each write their own copy and lose the other's change.
 * 'Added to cart!' follows the server's answer, never the click: a refused
 * or unanswered change says why in a toast, where the visitor is looking.
 */

type CartData = NonNullable<ReturnType<typeof useRouteLoaderData<RootLoader>>>["cart"];
export type CartLineView = CartData["lines"][number];
export type CartProduct = CartLineView["product"];
/** The server's figures for the cart it last answered with; null for an empty cart. */
export type CartPriceView = CartData["price"];

export type AddedNotice = { key: number; product: CartProduct; quantity: number };

type CartContextValue = {
  lines: CartLineView[];
  /** How many items the lines hold, changes on their way included (a count, not money). */
  itemCount: number;
  /** The server's figures: they stay those of its last answer while `pending`. */
  price: CartPriceView;
  /** False before hydration: then forms post normally and links navigate. */
  enhanced: boolean;
  change: (change: CartChange, product?: CartProduct) => void;
  /** The last add the server accepted in this page's life, for the 'Added to cart!' popup. */
  added: AddedNotice | null;
  error: string | null;
  /** Changes are still on their way to the server: `price` is not yet the shown lines'. */
  pending: boolean;
};

const CartContext = createContext<CartContextValue | null>(null);

type QueuedChange = { change: CartChange; product?: CartProduct };

type CartActionData = { ok: true } | { ok: false; error: string } | RequestFailed;

export function CartProvider({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<RootLoader>("root");
  const serverLines = useMemo(() => root?.cart.lines ?? [], [root]);
  const fetcher = useFetcher<CartActionData>({ key: "cart" });
  const [queue, setQueue] = useState<QueuedChange[]>([]);
  const [inFlight, setInFlight] = useState<QueuedChange | null>(null);
  const [added, setAdded] = useState<AddedNotice | null>(null);
  const [enhanced, setEnhanced] = useState(false);
  const knownProducts = useRef(new Map<string, CartProduct>());
  const toast = useToast();

  useEffect(() => setEnhanced(true), []);
  // Said on the page once the cart's forms are intercepted: before that a press posts the form
  // the plain way. Tests wait for it before failing a request the enhanced page must report.
  useEffect(() => {
    if (enhanced) document.documentElement.dataset.enhanced = "";
  }, [enhanced]);

  for (const line of serverLines) knownProducts.current.set(line.product.id, line.product);

  const reportAnswer = useCallback(
    ({ change, product }: QueuedChange, answer: CartActionData | undefined) => {
      if (answer && "ok" in answer && answer.ok) {
        if (change.intent === "add" && product) setAdded({ key: Date.now(), product, quantity: change.quantity });
        return;
      }
      toast(cartChangeFailed(change.intent, answer && "error" in answer ? answer.error : null));
    },
    [toast],
  );

  // Send the next queued change once the previous one has settled. "sent"
  // covers the moment between submit() and the fetcher reporting it is busy.
  const progress = useRef<"idle" | "sent" | "busy">("idle");
  /** The change whose answer the fetcher is waiting for. */
  const sent = useRef<QueuedChange | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle") {
      progress.current = "busy";
      return;
    }
    if (progress.current === "sent") return;
    if (progress.current === "busy") {
      progress.current = "idle";
      setInFlight(null);
      if (sent.current) reportAnswer(sent.current, fetcher.data);
      sent.current = null;
    }
    const [first, ...rest] = queue;
    if (!first) return;
    progress.current = "sent";
    sent.current = first;
    setInFlight(first);
    setQueue(rest);
    fetcher.submit(toFormData(first.change), { method: "post", action: "/cart" });
  }, [fetcher, queue, reportAnswer]);

  const change = useCallback((change: CartChange, product?: CartProduct) => {
    if (product) knownProducts.current.set(product.id, product);
    setQueue((current) => [...current, { change, product }]);
  }, []);

  const lines = useMemo(() => {
    const pending = [inFlight, ...queue].filter((entry): entry is QueuedChange => entry !== null);
    if (pending.length === 0) return serverLines;
    let items: CartItem[] = serverLines.map((line) => ({ productId: line.product.id, quantity: line.quantity }));
    for (const { change } of pending) {
      const result = applyCartChange(items, change);
      if (result.ok) items = result.items;
    }
    return items.flatMap((item) => {
      const product = knownProducts.current.get(item.productId);
      return product ? [{ product, quantity: item.quantity }] : [];
    });
  }, [serverLines, inFlight, queue]);

  useCartMirror(serverLines, root?.cart.known ?? true);

  const value = useMemo<CartContextValue>(
    () => ({
      lines,
      itemCount: lines.reduce((count, line) => count + line.quantity, 0),
      price: root?.cart.price ?? null,
      enhanced,
      change,
      added,
      error: fetcher.state === "idle" && fetcher.data ? describeFailure(fetcher.data) : null,
      pending: inFlight !== null || queue.length > 0,
    }),
    [lines, enhanced, change, added, fetcher.state, fetcher.data, root, inFlight, queue],
  );

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart() {
  const context = useContext(CartContext);
  if (!context) throw new Error("useCart must be used inside <CartProvider>");
  return context;
}

/** The drawer's line about the last change, when it did not go through. */
function describeFailure(answer: CartActionData) {
  if (isRequestFailed(answer)) return cartChangeFailed("update", null).description;
  return answer.ok ? null : answer.error;
}

function toFormData(change: CartChange) {
  const formData = new FormData();
  for (const [key, value] of Object.entries(change)) formData.set(key, String(value));
  return formData;
}

/**
 * Mirrors the server's cart into local storage (requirements §4) and, for a visitor
 * the server has never seen (a new cookie jar), restores it from there.
 */
function useCartMirror(serverLines: CartLineView[], serverKnowsCart: boolean) {
  const restoreFetcher = useFetcher({ key: "cart-restore" });
  const decided = useRef(false);

  useEffect(() => {
    if (!decided.current) {
      decided.current = true;
      const saved = readSavedCart();
      if (!serverKnowsCart && serverLines.length === 0 && saved.length > 0) {
        restoreFetcher.submit({ intent: "restore", items: JSON.stringify(saved) }, { method: "post", action: "/cart" });
        return;
      }
    }
    if (restoreFetcher.state !== "idle") return;
    if (serverLines.length === 0) window.localStorage.removeItem(CART_STORAGE_KEY);
    else {
      const items = serverLines.map((line) => ({ productId: line.product.id, quantity: line.quantity }));
      window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(items));
    }
  }, [serverLines, serverKnowsCart, restoreFetcher]);
}

function readSavedCart(): unknown[] {
  try {
    const saved: unknown = JSON.parse(window.localStorage.getItem(CART_STORAGE_KEY) ?? "[]");
    return Array.isArray(saved) ? saved : [];
  } catch {
    return [];
  }
}
