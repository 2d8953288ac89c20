import type { MetaDescriptor } from "@remix-run/react";
import { brand } from "~/lib/brand";
import { centsToDollars } from "~/lib/money";
import { productPath } from "~/lib/url";

/** The share image every public page uses (drawn by scripts/draw-product-art.mjs). */
const SHARE_IMAGE = "/images/og-shop.png";

/**
 * A public page's title, description, canonical URL and social-sharing tags.
 * `origin` is the shop's public origin from the loader (links never take the
 * request's Host header), empty when the loader failed.
 */
export function publicPageMeta({ title, description, origin, path }: { title: string; description: string; origin: string; path: string }): MetaDescriptor[] {
  const url = `${origin}${path}`;
  const image = `${origin}${SHARE_IMAGE}`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: brand.name },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:alt", content: `${brand.name} frozen peanut-butter yogurt bars and bites` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
}

/** A page search engines should not list: checkout, order, payment and unsubscribe pages. */
export function privatePageMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | ${brand.name}` }, { name: "robots", content: "noindex" }];
}

type ListedProduct = {
  id: string;
  name: string;
  description: string;
  image: string;
  category: string;
  priceCents: number;
  inStock: boolean;
};

/** schema.org Product data with its offer (price in USD, availability, the product page's URL). */
export function productStructuredData(product: ListedProduct, origin: string) {
  return {
    "@type": "Product",
    sku: product.id,
    name: product.name,
    description: product.description,
    image: `${origin}${product.image}`,
    category: product.category === "bars" ? "Frozen yogurt bars" : "Frozen yogurt bites",
    brand: { "@type": "Brand", name: brand.name },
    url: `${origin}${productPath(product.id)}`,
    offers: {
      "@type": "Offer",
      price: centsToDollars(product.priceCents).toFixed(2),
      priceCurrency: "USD",
      availability: product.inStock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      url: `${origin}${productPath(product.id)}`,
    },
  };
}
