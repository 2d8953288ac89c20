import { useRouteLoaderData } from "@remix-run/react";
import { DEFAULT_SETTINGS, shopTerms, type ShopTerms } from "~/lib/shop-settings";
import type { RootLoader } from "~/root";

/** What the storefront's words state: the root loader's copy of the owner's settings (decision 052). */
export function useShopTerms(): ShopTerms {
  const root = useRouteLoaderData<RootLoader>("root");
  // Only the error page of a root that could not load has none: it states no number.
  return root?.terms ?? shopTerms(DEFAULT_SETTINGS);
}
