import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError, useRouteLoaderData, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { AddedToCartPopup } from "~/components/cart/added-popup";
import { CartDrawer } from "~/components/cart/cart-drawer";
import { JsonLd } from "~/components/json-ld";
import { ShopHeader } from "~/components/shop/shop-header";
import { SiteFooter } from "~/components/site-footer";
import { brand } from "~/lib/brand";
import { rangeNames } from "~/lib/product-facts";
import { privatePageMeta, productStructuredData, publicPageMeta } from "~/lib/seo";
import { productPath } from "~/lib/url";
import { findProductPage } from "~/models/catalog.server";
import { ErrorBoundary as RootErrorBoundary, type RootLoader } from "~/root";
import { publicOrigin } from "~/utils/origin.server";
import { ProductDetails, ProductHero } from "~/routes/shop_.$id/product-sections";

/**
 * One product's page, /shop/<catalogue id>. An id the catalogue does not have
 * is the 404 page (root ErrorBoundary), its path logged. A product the owner
 * archived answers 410 with a page that says it is no longer sold and leads
 * to the rest of its range: a customer following an old link or bookmark
 * learns what happened (decision 065).
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const found = await findProductPage(params.id ?? "");
  if (!found) {
    console.warn(`404 Not Found: ${new URL(request.url).pathname}`);
    throw new Response("Not Found", { status: 404 });
  }
  const { product, facts } = found;
  const origin = publicOrigin();
  if (!product.forSale) {
    const retired: Retired = { retired: product.name, category: product.category === "bites" ? "bites" : "bars" };
    throw data(retired, { status: 410 });
  }
  return {
    product,
    facts,
    origin,
    structuredData: { "@context": "https://schema.org", ...productStructuredData(product, origin) },
  };
}

/** The product does not change when the cart does, nor when the drawer opens. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formAction === "/cart") return false;
  if (currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
};

export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  const retired = retiredProduct(error);
  if (retired) return privatePageMeta(`${retired.retired} is no longer sold`);
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
        {facts ? <ProductDetails facts={facts} category={product.category === "bites" ? "bites" : "bars"} /> : null}
      </main>
      <SiteFooter />

      {searchParams.get("cart") === "open" ? <CartDrawer /> : null}
      <AddedToCartPopup />
      <JsonLd data={structuredData} />
    </>
  );
}

/** What the loader throws for an archived product (status 410). */
type Retired = { retired: string; category: "bars" | "bites" };

function retiredProduct(error: unknown): Retired | null {
  if (!isRouteErrorResponse(error) || error.status !== 410) return null;
  const data: unknown = error.data;
  return typeof data === "object" && data !== null && "retired" in data && "category" in data ? (data as Retired) : null;
}

/**
 * An archived product's page (410): what happened, and the way to the rest of
 * its range, with the shop's header and cart. Any other error is shown as the
 * root's boundary shows it.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const retired = retiredProduct(error);
  const [searchParams] = useSearchParams();
  if (!retired) return <RootErrorBoundary />;
  const range = rangeNames[retired.category];
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ShopHeader back={{ to: "/shop", label: "Back to Shop" }} />
      <main className="status-page" id="main">
        <h1>{retired.retired} is no longer sold</h1>
        <p>We have retired this one; orders already placed are not affected. Have a look at the rest of our {range}.</p>
        <div className="status-page__actions">
          <Link to={`/shop?category=${retired.category}`} className="button button--primary">
            See our {range}
          </Link>
          <Link to="/shop" className="button button--ghost">
            Back to the shop
          </Link>
        </div>
      </main>
      <SiteFooter />
      {searchParams.get("cart") === "open" ? <CartDrawer /> : null}
    </>
  );
}
