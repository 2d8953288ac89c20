import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { brand } from "~/lib/brand";
import { AddedToCartPopup } from "~/components/cart/added-popup";
import { CartDrawer } from "~/components/cart/cart-drawer";
import { DeliveryTiles } from "~/components/delivery-tiles";
import { ProductCard } from "~/components/shop/product-card";
import { ShopHeader } from "~/components/shop/shop-header";
import { SiteFooter } from "~/components/site-footer";
import { listProducts, parseCategory, type Category, type Product } from "~/models/catalog.server";
import { publicOrigin } from "~/utils/origin.server";
import type { RootLoader } from "~/root";
import { formatWholeDollars, rangePrice } from "~/lib/money";
import { barNutrition, cartonNutrition, rangeNames } from "~/lib/product-facts";
import { productStructuredData, publicPageMeta } from "~/lib/seo";
import { JsonLd } from "~/components/json-ld";

const filters: { category: Category | null; label: string }[] = [
  { category: null, label: "All Products" },
  { category: "bars", label: rangeNames.bars },
  { category: "bites", label: rangeNames.bites },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const category = parseCategory(url.searchParams.get("category"));
  const [products, catalogue] = await Promise.all([listProducts(category), listProducts()]);
  return { products, category, origin: publicOrigin(), description: shopDescription(catalogue) };
}

/** The page's description, with each range's price as the owner has set it. */
function shopDescription(catalogue: Product[]) {
  const price = (category: Category) => {
    const range = rangePrice(catalogue.filter((product) => product.category === category).map((product) => product.priceCents));
    return range ? `${range.from ? "from " : ""}${formatWholeDollars(range.cents)}` : null;
  };
  const bars = price("bars");
  const bites = price("bites");
  return (
    `Order organic, high-protein frozen peanut-butter yogurt bars${bars ? ` (${bars})` : ""} and chocolate-dipped mini bites ` +
    `(${bites ? `${bites} ` : ""}a carton of ${cartonNutrition.bitesPerCarton}), delivered frozen across West LA and the South Bay.`
  );
}

/** The catalogue does not change when the cart does, nor when the drawer opens. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formAction === "/cart") return false;
  if (currentUrl.searchParams.get("category") === nextUrl.searchParams.get("category")) return false;
  return defaultShouldRevalidate;
};

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  publicPageMeta({
    title: `Shop Frozen PB Yogurt Bars & Mini Bites | ${brand.name}`,
    description: data?.description ?? brand.tagline,
    origin: data?.origin ?? "",
    path: "/shop",
  });

export default function Shop() {
  const { products, category, origin } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const root = useRouteLoaderData<RootLoader>("root");
  const flash = root?.cartFlash;

  return (
    <>
      <a href="#products" className="skip-link">
        Skip to products
      </a>
      <ShopHeader />
      <main id="main">
        <section className="shop-hero">
          <div className="container">
            <p className="eyebrow">Frozen fresh in Los Angeles</p>
            <h1>Shop bars &amp; bites</h1>
            <p className="lead">Organic Greek yogurt, real peanut butter and fruit, frozen into snacks with {barNutrition.proteinGrams}g of protein per bar.</p>
          </div>
        </section>

        <section className="container shop-products" id="products" aria-labelledby="products-title">
          <h2 id="products-title" className="visually-hidden">
            Products
          </h2>
          <nav className="filters" aria-label="Filter products">
            {filters.map((filter) => {
              const active = filter.category === category;
              return (
                <Link
                  key={filter.label}
                  to={filter.category ? `/shop?category=${filter.category}` : "/shop"}
                  className={`filter ${active ? "filter--active" : ""}`}
                  aria-current={active ? "page" : undefined}
                  preventScrollReset
                >
                  {filter.label}
                </Link>
              );
            })}
          </nav>

          {flash?.kind === "error" ? (
            <p className="notice notice--error" role="alert">
              {flash.message}
            </p>
          ) : null}

          <div className="product-grid">
            {products.map((product, index) => (
              <ProductCard
                key={product.id}
                product={product}
                // The first picture is what a phone's first view is built around (its largest paint).
                load={index === 0 ? "priority" : index < 3 ? "eager" : "lazy"}
              />
            ))}
          </div>
        </section>

        <section className="delivery-info" aria-labelledby="delivery-title">
          <div className="container">
            <h2 id="delivery-title">Delivery information</h2>
            <DeliveryTiles />
          </div>
        </section>
      </main>
      <SiteFooter />

      {searchParams.get("cart") === "open" ? <CartDrawer /> : null}
      <AddedToCartPopup />
      <JsonLd data={productList(products, origin)} />
    </>
  );
}

function productList(products: Parameters<typeof productStructuredData>[0][], origin: string) {
  return {
    "@context": "https://schema.org",
    "@type": "ItemList",
    itemListElement: products.map((product, index) => ({
      "@type": "ListItem",
      position: index + 1,
      item: productStructuredData(product, origin),
    })),
  };
}
