import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, type ShouldRevalidateFunction } from "@remix-run/react";
import type { ReactNode } from "react";
import { brand } from "~/lib/brand";
import { fontFiles } from "~/lib/fonts";
import { shopSettings } from "~/models/catalog.server";
import { loadCartLines } from "~/models/cart.server";
import { priceCart } from "~/models/pricing.server";
import { shopTerms } from "~/lib/shop-settings";
import { commitCartSession, getCartSession, settlePendingOrder } from "~/utils/cart-session.server";
import { CartProvider } from "~/components/cart/cart-context";
import { NotFound, RequestRefused, UnexpectedError } from "~/components/error-pages";
import { RouteFocus } from "~/components/route-focus";
import { useNonce } from "~/lib/nonce";
import { Toaster, ToastProvider } from "~/components/toaster";
import { readToast } from "~/utils/toast.server";
import { isRequestFailed } from "~/lib/request-failure";
import stylesheet from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "preload", href: fontFiles.fredoka, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: fontFiles.nunito, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "stylesheet", href: "/fonts.css" },
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: `${brand.name} | Organic Frozen Peanut-Butter Yogurt Bars & Bites` },
  { name: "description", content: brand.tagline },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, known, items: saved } = await getCartSession(request);
  const { items, changed } = await settlePendingOrder(session, saved);
  const flash = session.get("flash") ?? null;
  const { toast, setCookie } = await readToast(request);
  // Reading a one-time message consumes it, so its cookie must be written back.
  const headers = new Headers();
  if (flash || changed) headers.append("Set-Cookie", await commitCartSession(session));
  if (setCookie) headers.append("Set-Cookie", setCookie);
  // The drawer on every page renders the server's figures for this cart (decision 051): it computes no money.
  const [lines, price, settings] = await Promise.all([loadCartLines(items), priceCart(items), shopSettings()]);
  // The owner's terms, for every text that states a number (the badge, the tiles, the notices; decision 052).
  return data({ cart: { lines, known, price }, terms: shopTerms(settings), cartFlash: flash, toast }, { headers });
}

export type RootLoader = typeof loader;

/**
 * Opening the drawer or a dialog changes only the URL's UI state: no need to
 * reload the cart. Nor after a post that got no answer: the connection that
 * lost it would most likely lose the reload too, and the page keeps what it shows.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, actionResult, defaultShouldRevalidate }) => {
  if (isRequestFailed(actionResult)) return false;
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const uiOnly = new Set(["cart", "partner"]);
  const strip = (url: URL) =>
    [...url.searchParams]
      .filter(([key]) => !uiOnly.has(key))
      .map(([key, value]) => `${key}=${value}`)
      .join("&");
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
};

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3f2417" />
        {/* Fetches the page's scripts once it has painted (decision 075). */}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <ToastProvider>
      <CartProvider>
        <Outlet />
      </CartProvider>
      <Toaster />
      <RouteFocus />
    </ToastProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500) {
    return <RequestRefused detail={typeof error.data === "string" && error.data.length <= 300 ? error.data : null} />;
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  return <UnexpectedError report={isRouteErrorResponse(error) ? null : error} />;
}
