import { cartButtonLabel, type CartItem } from "~/lib/cart";
import { loadCartLines } from "~/models/cart.server";
import { priceCart } from "~/models/pricing.server";
import { readCartSession, settlePendingOrder } from "~/utils/cart-session.server";

/**
 * The parts of a cached page that belong to one visitor (decision 060). The
 * shop's pages differ between visitors only by their cart: the header's count
 * (its number and its label) and the cart in the page's data, which the
 * browser hydrates from. So the page cache (server/page-cache.mjs) keeps the
 * page a visitor without a cart gets, cut at these parts as they read for
 * that visitor, and gives a visitor with a cart the same page with theirs:
 * the same HTML Remix would render for them, at the cost of pricing their
 * cart. tests/e2e/page-cache.spec.ts checks, page by page, that the two are
 * the same bytes; a change that makes a cached page show more of the cart
 * (the open drawer does: it is rendered) must be added here.
 */

/** The root loader's cart: the lines, whether the server holds a cart, and the server's figures. */
export async function cartView(items: CartItem[], known: boolean) {
  const [lines, price] = await Promise.all([loadCartLines(items), priceCart(items)]);
  return { lines, known, price };
}

type CartView = Awaited<ReturnType<typeof cartView>>;

/** Remix's escaping of the page's data for a script (escapeHtml in @remix-run/server-runtime's markup.js). */
const SCRIPT_ESCAPES: Record<string, string> = { "&": "\\u0026", ">": "\\u003e", "<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029" };

function partsFor(cart: CartView) {
  const count = cart.lines.reduce((total, line) => total + line.quantity, 0);
  return [
    `aria-label="${cartButtonLabel(count)}"`,
    `data-testid="cart-count">${count}</span>`,
    // The root's data starts with its cart (app/root.tsx's loader), as Remix serialises it into the page.
    `{"root":{"cart":${JSON.stringify(cart).replace(/[&><\u2028\u2029]/g, (character) => SCRIPT_ESCAPES[character] ?? character)},`,
  ];
}

/** The parts as a visitor without a cart gets them: where the cached page is cut. */
export const anonymousPageParts = partsFor({ lines: [], known: false, price: null });

/** The shop's cookies a cached page can be made a visitor's own with: the cart, and the checkout's draft (no page in the cache reads it). */
const FILLABLE_COOKIES = new Set(["chillpb_cart", "chillpb_checkout"]);

/**
 * A visitor's parts for a cached page, or null when the page must be rendered
 * for them: the open drawer (`?cart=…`) shows the cart's lines, a message
 * waits to be shown once, an order being paid must be settled, or a cookie
 * asks for anything else.
 */
export async function visitorPageParts(cookie: string, search: string): Promise<string[] | null> {
  if (new URLSearchParams(search).has("cart")) return null;
  for (const pair of cookie.split(";")) {
    const name = pair.slice(0, pair.indexOf("=") === -1 ? undefined : pair.indexOf("=")).trim();
    if (name.startsWith("chillpb_") && !FILLABLE_COOKIES.has(name)) return null;
  }
  const { session, items, known } = await readCartSession(cookie);
  if (session.has("flash")) return null;
  const settled = await settlePendingOrder(session, items);
  if (settled.changed) return null;
  return partsFor(await cartView(settled.items, known));
}
