import { useFetcher, useRouteLoaderData } from "@remix-run/react";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { CART_STORAGE_KEY } from "~/lib/brand";
import { applyCartChange, cartTotals, type CartChange, type CartItem } from "~/lib/cart";
import type { RootLoader } from "~/root";

/**
 * The cart as the page shows it: the server's cart (root loader) plus the
 * changes still on their way, so every click shows at once (optimistic UI).
 *
 * Changes are sent one at a time: the cart is a cookie, and two requests in
 * flight together would each write their own copy and lose the other's change.
 */

type CartData = NonNullable<ReturnType<typeof useRouteLoaderData<RootLoader>>>["cart"];
export type CartLineView = CartData["lines"][number];
export type CartProduct = CartLineView["product"];

export type AddedNotice = { key: number; product: CartProduct; quantity: number };

type CartContextValue = {
  lines: CartLineView[];
  totals: ReturnType<typeof cartTotals>;
  /** False before hydration: then forms post normally and links navigate. */
  enhanced: boolean;
  change: (change: CartChange, product?: CartProduct) => void;
  /** The last product added in this page's life, for the 'Added to cart!' popup. */
  added: AddedNotice | null;
  error: string | null;
  /** The server's free-shipping hint for the cart it last answered with. */
  freeShippingHint: string | null;
  /** Changes are still on their way to the server. */
  pending: boolean;
};

const CartContext = createContext<CartContextValue | null>(null);

type QueuedChange = { change: CartChange; product?: CartProduct };

type CartActionData = { ok: true } | { ok: false; error: string };

export function CartProvider({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<RootLoader>("root");
  const serverLines = useMemo(() => root?.cart.lines ?? [], [root]);
  const fetcher = useFetcher<CartActionData>({ key: "cart" });
  const [queue, setQueue] = useState<QueuedChange[]>([]);
  const [inFlight, setInFlight] = useState<QueuedChange | null>(null);
  const [added, setAdded] = useState<AddedNotice | null>(null);
  const [enhanced, setEnhanced] = useState(false);
  const knownProducts = useRef(new Map<string, CartProduct>());

  useEffect(() => setEnhanced(true), []);

  for (const line of serverLines) knownProducts.current.set(line.product.id, line.product);

  // Send the next queued change once the previous one has settled. "sent"
  // covers the moment between submit() and the fetcher reporting it is busy.
  const progress = useRef<"idle" | "sent" | "busy">("idle");
  useEffect(() => {
    if (fetcher.state !== "idle") {
      progress.current = "busy";
      return;
    }
    if (progress.current === "sent") return;
    if (progress.current === "busy") {
      progress.current = "idle";
      setInFlight(null);
    }
    const [first, ...rest] = queue;
    if (!first) return;
    progress.current = "sent";
    setInFlight(first);
    setQueue(rest);
    fetcher.submit(toFormData(first.change), { method: "post", action: "/cart" });
  }, [fetcher, queue]);

  const change = useCallback((change: CartChange, product?: CartProduct) => {
    if (product) knownProducts.current.set(product.id, product);
    setQueue((current) => [...current, { change, product }]);
    if (change.intent === "add" && product) {
      setAdded({ key: Date.now(), product, quantity: change.quantity });
    }
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
      totals: cartTotals(lines.map((line) => ({ priceCents: line.product.priceCents, quantity: line.quantity }))),
      enhanced,
      change,
      added,
      error: fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null,
      freeShippingHint: root?.cart.freeShippingHint ?? null,
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

function toFormData(change: CartChange) {
  const formData = new FormData();
  for (const [key, value] of Object.entries(change)) formData.set(key, String(value));
  return formData;
}

/**
 * Mirrors the server's cart into local storage (spec §4) and, for a visitor
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
        restoreFetcher.submit(
          { intent: "restore", items: JSON.stringify(saved) },
          { method: "post", action: "/cart" },
        );
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
