import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CartForm } from "~/components/cart/cart-form";
import type { CartProduct } from "~/components/cart/cart-context";
import { CartIcon, LeafIcon, SnowflakeIcon, TruckIcon } from "~/components/icons";
import { PRODUCT_IMAGE_SIZES, ProductImage } from "~/components/product-image";
import { NutritionLabel } from "~/components/product/nutrition-label";
import { brand } from "~/lib/brand";
import { useShopTerms } from "~/components/shop-terms";
import { formatCents, formatWholeDollars } from "~/lib/money";
import {
  advisoryText,
  allergenName,
  allergenSources,
  allergenStatement,
  ingredientInfo,
  barNutrition,
  nutritionClaims,
  organicIngredients,
  servingOf,
  type ProductFacts,
} from "~/lib/product-facts";

type Facts = SerializeFrom<ProductFacts>;

/** The top of a product page: the picture, what it is, what it costs, its allergens and Add to cart (or Sold out). */
export function ProductHero({ product, facts, error }: { product: CartProduct; facts: Facts | null; error: string | null }) {
  const bars = product.category === "bars";
  const unit = `per ${servingOf(bars ? "bars" : "bites")}`;
  // Derived from its facts alone (decision 096): a product whose owner stated none claims nothing.
  const claims = nutritionClaims(facts?.nutrition ?? null);
  return (
    <section className={`product-hero product-hero--${flavorTone(product.flavor)}`} aria-labelledby="product-title">
      <div className="container product-hero__inner">
        <div className="product-hero__media">
          <ProductImage product={product} load="priority" className="product-hero__image" sizes={PRODUCT_IMAGE_SIZES.hero} />
          <span className="chip product-hero__flavor">{product.flavor}</span>
          {product.inStock ? null : (
            <span className="product-hero__sold-out" aria-hidden="true">
              Sold out
            </span>
          )}
        </div>

        <div className="product-hero__info">
          <p className="eyebrow">{bars ? `${barNutrition.barGrams}g frozen yogurt bar` : "Chocolate-dipped mini bites"}</p>
          <h1 id="product-title">{product.name}</h1>
          <p className="product-hero__price">
            <span className="price">{formatCents(product.priceCents)}</span> <span className="product-hero__unit">{unit}</span>
          </p>
          <p className="lead">{product.description}</p>
          {claims.length > 0 ? (
            <ul className="product-hero__highlights" aria-label="At a glance" data-testid="product-claims">
              {claims.map((claim) => (
                <li key={claim}>{claim}</li>
              ))}
            </ul>
          ) : null}

          <AllergenBox facts={facts} />

          {error ? (
            <p className="notice notice--error" role="alert">
              {error}
            </p>
          ) : null}

          {product.inStock ? (
            <CartForm change={{ intent: "add", productId: product.id, quantity: 1 }} product={product} className="product-hero__buy">
              <button type="submit" className="button button--primary button--large" aria-label={`Add to cart, ${product.name}`}>
                <CartIcon /> Add to cart
              </button>
              {product.stockLeft ? <p className="stock-left product-hero__stock-left">Only {product.stockLeft} left</p> : null}
            </CartForm>
          ) : (
            <div className="product-hero__buy">
              <button type="button" className="button button--primary button--large" disabled>
                Sold out
              </button>
              <p className="product-hero__stock">
                This one is sold out right now. <Link to={`/shop?category=${product.category}`}>See the rest of the range</Link>
              </p>
            </div>
          )}

          <ul className="product-hero__perks">
            <li>
              <TruckIcon /> Free shipping on orders over {formatWholeDollars(useShopTerms().freeShippingThresholdCents)}
            </li>
            <li>
              <SnowflakeIcon /> Delivered frozen across West LA &amp; the South Bay
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}

/** The allergy statement where the buying decision is made. */
function AllergenBox({ facts }: { facts: Facts | null }) {
  if (!facts) {
    return (
      <p className="allergen-box" data-testid="allergen-box">
        Ask us about allergens before you order: <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>
      </p>
    );
  }
  return (
    <div className="allergen-box" data-testid="allergen-box">
      <p className="allergen-box__contains">{allergenStatement(facts)}</p>
      {facts.advisories.map((advisory) => (
        <p key={advisory} className="allergen-box__advisory">
          {advisoryText[advisory].full}
        </p>
      ))}
    </div>
  );
}

/** What is inside, the nutrition panel and the allergens in full. */
export function ProductDetails({ facts, category }: { facts: Facts; category: "bars" | "bites" }) {
  const count = facts.ingredients.length;
  return (
    <div className="product-details">
      <div className="container product-details__grid">
        <section className="product-details__inside" aria-labelledby="inside-title">
          <p className="eyebrow">What&apos;s inside</p>
          <h2 id="inside-title">{count === organicIngredients.length ? "All seven" : `${count} of our seven`} organic ingredients</h2>
          <ul className="product-ingredients">
            {facts.ingredients.map((entry) => (
              <li key={entry.ingredient}>
                <span className="product-ingredients__icon" aria-hidden="true">
                  <LeafIcon />
                </span>
                <span>
                  <strong>{ingredientInfo[entry.ingredient].name}</strong>
                  {entry.detail ? <span className="product-ingredients__detail">{entry.detail}</span> : null}
                </span>
              </li>
            ))}
          </ul>
        </section>

        <div className="product-details__side">
          {facts.nutrition ? (
            <NutritionLabel
              nutrition={facts.nutrition}
              category={category}
              heading="h2"
              note={facts.nutrition.per === "carton" ? `We state fat, refined sugar and calories for our ${barNutrition.barGrams}g bars only.` : undefined}
            />
          ) : (
            <section className="nutrition-label" aria-labelledby="facts-title">
              <h2 id="facts-title" className="nutrition-label__title">
                Nutrition Facts
              </h2>
              <p className="nutrition-label__note">
                We have not published this one&apos;s nutrition facts yet. Ask us before you order:{" "}
                <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>
              </p>
            </section>
          )}

          <section className="product-allergens" aria-labelledby="allergens-title">
            <h2 id="allergens-title">Allergens</h2>
            <dl className="product-allergens__list">
              {allergenSources(facts).map(({ allergen, ingredients }) => (
                <div key={allergen}>
                  <dt>{allergenName[allergen]}</dt>
                  <dd>
                    {ingredients.length > 0 ? (
                      <>
                        <span className="visually-hidden">from </span>
                        {ingredients.join(", ")}
                      </>
                    ) : (
                      // Declared by the owner beyond what the ingredients bring (decision 065).
                      "May be present"
                    )}
                  </dd>
                </div>
              ))}
            </dl>
            {facts.advisories.map((advisory) => (
              <p key={advisory} className="product-allergens__advisory">
                {advisoryText[advisory].full}
              </p>
            ))}
          </section>
        </div>
      </div>
    </div>
  );
}

/** The page's tint follows the flavour: "Strawberry PB" → strawberry. */
function flavorTone(flavor: string) {
  const tone = flavor.split(" ")[0]?.toLowerCase();
  return tone === "strawberry" || tone === "banana" ? tone : "chocolate";
}
