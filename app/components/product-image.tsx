import type { CartProduct } from "~/components/cart/cart-context";

type Pictured = Pick<CartProduct, "image" | "imageAlt" | "imageWidth" | "imageHeight">;

/**
 * A product's artwork at its intrinsic size, so the page does not shift as it
 * loads. `lazy` below the fold, `eager` for the first row, `priority` for the
 * one image the first view is built around.
 */
export function ProductImage({ product, className, load = "lazy" }: { product: Pictured; className?: string; load?: "lazy" | "eager" | "priority" }) {
  return (
    <img
      className={className}
      src={product.image}
      alt={product.imageAlt}
      width={product.imageWidth}
      height={product.imageHeight}
      {...(load === "priority" ? { fetchPriority: "high" } : { loading: load, decoding: "async" })}
    />
  );
}
