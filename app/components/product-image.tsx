import type { CartProduct } from "~/components/cart/cart-context";
import { productImageSrcSet } from "~/lib/product-images";

type Pictured = Pick<CartProduct, "image" | "imageAlt" | "imageWidth" | "imageHeight">;

/** How wide each place shows a product's picture, for the browser to choose among an uploaded picture's widths. */
export const PRODUCT_IMAGE_SIZES = {
  /** A shop card: three across a 1,160 px container from 900 px, two from 640 px, one on a phone. */
  card: "(min-width: 900px) 370px, (min-width: 640px) 50vw, 100vw",
  /** The product page's picture: its column from 900 px, else the width of the screen. */
  hero: "(min-width: 900px) 600px, 100vw",
  /** The landing page's small pictures, three across a range card. */
  thumbnail: "(min-width: 900px) 180px, 33vw",
} as const;

/**
 * A product's artwork at its intrinsic size, so the page does not shift as it
 * loads. `lazy` below the fold, `eager` for the first row, `priority` for the
 * one image the first view is built around. An uploaded picture (decision
 * 065) also offers its other widths (`srcset`), `sizes` saying how wide it shows.
 */
export function ProductImage({
  product,
  className,
  load = "lazy",
  sizes = PRODUCT_IMAGE_SIZES.card,
}: {
  product: Pictured;
  className?: string;
  load?: "lazy" | "eager" | "priority";
  sizes?: string;
}) {
  const srcSet = productImageSrcSet(product.image);
  return (
    <img
      className={className}
      src={product.image}
      {...(srcSet ? { srcSet, sizes } : {})}
      alt={product.imageAlt}
      width={product.imageWidth}
      height={product.imageHeight}
      // Lower case: React 18 passes the attribute through as written, and warns about the camel-cased name it does not know yet.
      {...(load === "priority" ? { fetchpriority: "high" } : { loading: load, decoding: "async" })}
    />
  );
}

/** The srcset and sizes of a small picture (a cart or summary line, `width` CSS pixels wide), where the product has several widths. */
export function thumbnailSources(image: string, width: number): { srcSet?: string; sizes?: string } {
  const srcSet = productImageSrcSet(image);
  return srcSet ? { srcSet, sizes: `${width}px` } : {};
}
