import { Link } from "@remix-run/react";
import { CartForm } from "~/components/cart/cart-form";
import type { CartProduct } from "~/components/cart/cart-context";
import { CartIcon } from "~/components/icons";
import { ProductImage } from "~/components/product-image";
import { AllergenLine } from "~/components/product/allergen-line";
import { formatCents } from "~/lib/money";
import { productPath } from "~/lib/url";

export function ProductCard({ product, load = "lazy" }: { product: CartProduct; load?: "lazy" | "eager" | "priority" }) {
  return (
    // The card's id is the anchor a plain (no-JavaScript) add-to-cart post returns to.
    <article
      className={product.inStock ? "product-card" : "product-card product-card--sold-out"}
      id={`product-${product.id}`}
      aria-labelledby={`product-${product.id}-name`}
    >
      <div className="product-card__media">
        {/* The name below is the card's link; this one only makes the picture clickable too. */}
        <Link to={productPath(product.id)} tabIndex={-1} aria-hidden="true" className="product-card__image-link">
          <ProductImage product={product} load={load} />
        </Link>
        <span className="chip product-card__flavor">{product.flavor}</span>
      </div>
      <div className="product-card__body">
        <h3 id={`product-${product.id}-name`}>
          <Link to={productPath(product.id)} className="product-card__link">
            {product.name}
          </Link>
        </h3>
        <p className="product-card__description">{product.description}</p>
        {product.claims.length > 0 ? (
          <ul className="product-card__claims" aria-label={`${product.name} at a glance`} data-testid="card-claims">
            {product.claims.map((claim) => (
              <li key={claim}>{claim}</li>
            ))}
          </ul>
        ) : null}
        <AllergenLine allergy={product.allergy} />
        <div className="product-card__footer">
          <span className="product-card__price">
            <span className="price">{formatCents(product.priceCents)}</span>
            {product.stockLeft ? <span className="stock-left">Only {product.stockLeft} left</span> : null}
          </span>
          <CartForm change={{ intent: "add", productId: product.id, quantity: 1 }} product={product}>
            <button
              type="submit"
              className="button button--primary"
              disabled={!product.inStock}
              // The visible words come first (WCAG 2.5.3): "Add to cart, Chocolate Crunch" / "Sold out, Chocolate Crunch".
              aria-label={`${product.inStock ? "Add to cart" : "Sold out"}, ${product.name}`}
            >
              {product.inStock ? (
                <>
                  <CartIcon /> Add to cart
                </>
              ) : (
                "Sold out"
              )}
            </button>
          </CartForm>
        </div>
      </div>
    </article>
  );
}
