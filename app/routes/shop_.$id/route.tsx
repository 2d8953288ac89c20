import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { AddedToCartPopup } from "~/components/cart/added-popup";
import { CartDrawer } from "~/components/cart/cart-drawer";
import { JsonLd } from "~/components/json-ld";
import { ShopHeader } from "~/components/shop/shop-header";
import { SiteFooter } from "~/components/site-footer";
import { brand } from "~/lib/brand";
import { factsFor, rangeNames } from "~/lib/product-facts";
import { productStructuredData, publicPageMeta } from "~/lib/seo";
import { productPath } from "~/lib/url";
import { findProduct } from "~/models/catalog.server";
import type { RootLoader } from "~/root";
import { publicOrigin } from "~/utils/origin.server";
import { ProductDetails, ProductHero } from "~/routes/shop_.$id/product-sections";

/** One product's page, /shop/<catalogue id>. An id the catalogue does not have is the 404 page (root ErrorBoundary), its path logged. */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const product = await findProduct(params.id ?? "");
  if (!product) {
    console.warn(`404 Not Found: ${new URL(request.url).pathname}`);
    throw new Response("Not Found", { status: 404 });
  }
  const origin = publicOrigin();
  return json({
    product,
    facts: factsFor(product.id),
    origin,
    structuredData: { "@context": "https://schema.org", ...productStructuredData(product, origin) },
  });
}

/** The product does not change when the cart does, nor when the drawer opens. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formAction === "/cart") return false;
  if (currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
};

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: `Page not found | ${brand.name}` }];
  const { product, origin } = data;
  const kind = product.category === "bars" ? "Frozen PB Yogurt Bar" : "Frozen PB Yogurt Mini Bites";
  return publicPageMeta({
    title: `${product.name}: ${kind} | ${brand.name}`,
    description: product.description,
    origin,
    path: productPath(product.id),
  });
};

export default function ProductPage() {
  const { product, facts, structuredData } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const flash = useRouteLoaderData<RootLoader>("root")?.cartFlash;

  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ShopHeader back={{ to: "/shop", label: "Back to Shop" }} />
      <main id="main">
        <nav aria-label="Breadcrumb" className="container breadcrumb">
          <ol>
            <li>
              <Link to="/shop">Shop</Link>
            </li>
            <li>
              <Link to={`/shop?category=${product.category}`}>{product.category === "bars" ? rangeNames.bars : rangeNames.bites}</Link>
            </li>
            <li aria-current="page">{product.name}</li>
          </ol>
        </nav>
        <ProductHero product={product} facts={facts} error={flash?.kind === "error" ? flash.message : null} />
        {facts ? <ProductDetails facts={facts} /> : null}
      </main>
      <SiteFooter />

      {searchParams.get("cart") === "open" ? <CartDrawer /> : null}
      <AddedToCartPopup />
      <JsonLd data={structuredData} />
    </>
  );
}
