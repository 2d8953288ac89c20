import { Link } from "@remix-run/react";
import { brand } from "~/lib/brand";
import type { CartProduct } from "~/components/cart/cart-context";
import { ArrowRightIcon, HeartIcon, LeafIcon, MuscleIcon, PinIcon, SmileIcon, SnowflakeIcon, SparkleIcon } from "~/components/icons";
import { DeliveryTiles } from "~/components/delivery-tiles";
import { IconTiles } from "~/components/icon-tiles";
import { LandingMenu, landingSections } from "~/components/landing/landing-menu";
import { SectionLink } from "~/components/landing/section-link";
import { Logo } from "~/components/logo";
import { PRODUCT_IMAGE_SIZES, ProductImage } from "~/components/product-image";
import { AllergenLine } from "~/components/product/allergen-line";
import { NutritionLabel } from "~/components/product/nutrition-label";
import { formatCents, rangePrice } from "~/lib/money";
import { barNutrition, cartonNutrition, ingredientInfo, statedHighlights, organicIngredients, rangeNames } from "~/lib/product-facts";
import { productPath } from "~/lib/url";

export function PromoBanner() {
  return (
    <p className="promo-banner">
      <SparkleIcon /> First order? Take <strong>10% off</strong> with code <strong className="code">WELCOME10</strong>
    </p>
  );
}

export function LandingHeader() {
  return (
    <header className="landing-header">
      <div className="container landing-header__inner">
        <Logo />
        <nav aria-label="Main" className="landing-nav">
          {landingSections.map((section) => (
            <SectionLink key={section.hash} hash={section.hash}>
              {section.label}
            </SectionLink>
          ))}
        </nav>
        <Link to="/shop" className="button button--primary button--small landing-header__shop">
          Shop Now
        </Link>
        <LandingMenu />
      </div>
    </header>
  );
}

const heroBadges = [
  { label: "High Protein", icon: MuscleIcon },
  { label: "100% Organic", icon: LeafIcon },
  { label: "Clean Ingredients", icon: SparkleIcon },
  { label: "Kid-Friendly", icon: SmileIcon },
];

export function Hero({ bar, bites }: { bar?: CartProduct; bites?: CartProduct }) {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__inner">
        <div className="hero__copy">
          <p className="eyebrow">Made in Los Angeles</p>
          <h1 id="hero-title">
            The frozen treat that <span className="accent">loves you back</span>
          </h1>
          <p className="lead">
            Creamy organic Greek yogurt and real peanut butter, dipped in fair-trade chocolate. {barNutrition.proteinGrams}g of protein, no refined sugar, and
            gone in seconds.
          </p>
          <div className="hero__actions">
            <Link to="/shop" className="button button--primary button--large">
              Shop Now <ArrowRightIcon />
            </Link>
            <SectionLink hash="nutrition" className="button button--ghost button--large">
              What&apos;s inside
            </SectionLink>
          </div>
          <ul className="hero__badges" aria-label="Why you'll love it">
            {heroBadges.map(({ label, icon: BadgeIcon }) => (
              <li key={label} className="badge">
                <BadgeIcon /> {label}
              </li>
            ))}
          </ul>
        </div>
        <div className="hero__art">
          {bar ? <ProductImage product={bar} className="hero__art-main" load="priority" /> : null}
          {bites ? <ProductImage product={bites} className="hero__art-side" load="eager" /> : null}
          <p className="hero__sticker" aria-hidden="true">
            {barNutrition.proteinGrams}g<span>protein</span>
          </p>
        </div>
      </div>
    </section>
  );
}

const ranges = [
  { category: "bars", title: rangeNames.bars, facts: statedHighlights(barNutrition) },
  { category: "bites", title: rangeNames.bites, facts: statedHighlights(cartonNutrition) },
] as const;

export function ProductsSection({ products }: { products: CartProduct[] }) {
  return (
    <section className="section" id="products" aria-labelledby="products-title">
      <div className="container">
        <p className="eyebrow">Our products</p>
        <h2 id="products-title">Bars &amp; bites for every kind of craving</h2>
        <div className="range">
          {ranges.map((range) => (
            <RangeCard key={range.category} {...range} products={products.filter((product) => product.category === range.category)} />
          ))}
        </div>
      </div>
    </section>
  );
}

function RangeCard({ title, facts, products, category }: { title: string; facts: readonly string[]; products: CartProduct[]; category: string }) {
  // One figure while the products agree, "From" the lowest once the owner sets them apart.
  const price = rangePrice(products.map((product) => product.priceCents));
  return (
    <article className="range-card">
      <header>
        <h3>{title}</h3>
        {price ? (
          <p className="price">
            {price.from ? "From " : ""}
            {formatCents(price.cents)}
          </p>
        ) : null}
      </header>
      <ul className="range-card__facts">
        {facts.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      <ul className="range-card__products">
        {products.map((product) => (
          <li key={product.id}>
            <Link to={productPath(product.id)} className="range-card__product">
              <ProductImage product={product} sizes={PRODUCT_IMAGE_SIZES.thumbnail} />
              <span>{product.name}</span>
            </Link>
            <span className="range-card__flavor">{product.inStock ? product.flavor : <strong className="sold-out">Sold out</strong>}</span>
            <AllergenLine allergy={product.allergy} compact />
          </li>
        ))}
      </ul>
      <Link to={`/shop?category=${category}`} className="button button--ghost">
        Shop {title} <ArrowRightIcon />
      </Link>
    </article>
  );
}

const benefits = [
  { title: "100% Organic", text: "Certified organic yogurt, peanuts, fruit and honey. Nothing artificial, ever.", icon: LeafIcon },
  {
    title: `${barNutrition.proteinGrams}g Protein`,
    text: "Greek yogurt and peanut butter make every bar a snack that actually keeps you going.",
    icon: MuscleIcon,
  },
  { title: "Won't Melt", text: "Our recipe holds its shape longer, so little hands stay (mostly) clean.", icon: SnowflakeIcon },
  { title: "Kid-Approved", text: "Tested by a very honest panel of LA kids. The verdict: more, please.", icon: SmileIcon },
];

export function WhySection() {
  return (
    <section className="section section--tinted" id="why" aria-labelledby="why-title">
      <div className="container">
        <p className="eyebrow">Why {brand.name}</p>
        <h2 id="why-title">A snack you can feel good about</h2>
        <IconTiles tiles={benefits} className="benefits" itemClassName="benefit" iconClassName="benefit__icon" />
      </div>
    </section>
  );
}

// Requirements §1's facts and ingredients, from the module the product pages read too.
const ingredients = organicIngredients.map((ingredient) => ingredientInfo[ingredient].name);

export function NutritionSection() {
  return (
    <section className="section" id="nutrition" aria-labelledby="nutrition-title">
      <div className="container nutrition">
        <div>
          <p className="eyebrow">Nutrition facts</p>
          <h2 id="nutrition-title">Seven organic ingredients. That&apos;s it.</h2>
          <p className="lead">Everything in a bar, and nothing that isn&apos;t.</p>
          <ol className="ingredients">
            {ingredients.map((ingredient) => (
              <li key={ingredient}>
                <LeafIcon /> {ingredient}
              </li>
            ))}
          </ol>
        </div>
        <NutritionLabel
          nutrition={barNutrition}
          category="bars"
          heading="h3"
          note={`Mini bites: ${cartonNutrition.proteinGramsPerBite}g protein each, ${cartonNutrition.bitesPerCarton} bites and ${cartonNutrition.proteinGramsPerCarton}g protein per carton.`}
        />
      </div>
    </section>
  );
}

export function StorySection() {
  return (
    <section className="section section--chocolate" id="about" aria-labelledby="about-title">
      <div className="container story">
        <div>
          <p className="eyebrow">Our story</p>
          <h2 id="about-title">Born in a Westside kitchen</h2>
          <p>
            {brand.name} started with a mom, a freezer and a problem: every after-school snack was either sugar or cardboard. Our founder, Maya, teamed up with
            chef Luis, who spent a decade making desserts in LA restaurants, to build a treat she would happily hand to her kids.
          </p>
          <p>
            After more than forty test batches they landed on it: tangy Greek yogurt, roasted peanut butter, a little honey and real fruit, dipped in fair-trade
            chocolate. Today we still make every bar and bite in small batches in Los Angeles, and deliver them frozen to your door.
          </p>
          <p className="story__signoff">
            <HeartIcon /> Maya &amp; Chef Luis
          </p>
        </div>
        <ul className="story__stats">
          <li>
            <strong>40+</strong> test batches
          </li>
          <li>
            <strong>7</strong> organic ingredients
          </li>
          <li>
            <strong>24h</strong> from our kitchen to the road
          </li>
        </ul>
      </div>
    </section>
  );
}

const areas = [
  { name: "West LA", places: "Santa Monica, Venice, Culver City, Brentwood, Westwood, Mar Vista, Palms" },
  { name: "South Bay", places: "El Segundo, Manhattan Beach, Hermosa Beach, Redondo Beach, Torrance" },
];

export function LocationsSection() {
  return (
    <section className="section section--tinted" id="locations" aria-labelledby="locations-title">
      <div className="container">
        <p className="eyebrow">Find us</p>
        <h2 id="locations-title">Delivered frozen across West LA &amp; the South Bay</h2>
        <div className="locations">
          <ul className="areas">
            {areas.map((area) => (
              <li key={area.name} className="area-card">
                <h3>
                  <PinIcon /> {area.name}
                </h3>
                <p>{area.places}</p>
              </li>
            ))}
          </ul>
          <DeliveryTiles compact />
        </div>
        <div className="cta-band">
          <p>Ready for a chill snack?</p>
          <Link to="/shop" className="button button--primary button--large">
            Shop Now <ArrowRightIcon />
          </Link>
        </div>
      </div>
    </section>
  );
}
