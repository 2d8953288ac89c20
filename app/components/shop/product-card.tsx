import { CartForm } from "~/components/cart/cart-form";
import type { CartProduct } from "~/components/cart/cart-context";
import { CartIcon } from "~/components/icons";
import { ProductImage } from "~/components/product-image";
import { formatCents } from "~/lib/money";

export function ProductCard({ product, eager = false }: { product: CartProduct; eager?: boolean }) {
  return (
    // The card's id is the anchor a plain (no-JavaScript) add-to-cart post returns to.
    <article className="product-card" id={`product-${product.id}`} aria-labelledby={`product-${product.id}-name`}>
      <div className="product-card__media">
        <ProductImage product={product} load={eager ? "eager" : "lazy"} />
        <span className="chip product-card__flavor">{product.flavor}</span>
      </div>
      <div className="product-card__body">
        <h3 id={`product-${product.id}-name`}>{product.name}</h3>
        <p className="product-card__description">{product.description}</p>
        <div className="product-card__footer">
          <span className="price">{formatCents(product.priceCents)}</span>
          <CartForm change={{ intent: "add", productId: product.id, quantity: 1 }} product={product}>
            <button
              type="submit"
              className="button button--primary"
              disabled={!product.inStock}
              // The visible words come first (WCAG 2.5.3): "Add to cart, Chocolate Crunch".
              aria-label={`${product.inStock ? "Add to cart" : "Out of stock"}, ${product.name}`}
            >
              {product.inStock ? (
                <>
                  <CartIcon /> Add to cart
                </>
              ) : (
                "Out of stock"
              )}
            </button>
          </CartForm>
        </div>
      </div>
    </article>
  );
}
