import { json, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { brand } from "~/brand";
import {
  Hero,
  LandingHeader,
  LocationsSection,
  NutritionSection,
  ProductsSection,
  PromoBanner,
  StorySection,
  WhySection,
} from "~/components/landing/sections";
import { NewsletterSection } from "~/components/landing/newsletter";
import { PartnerSection } from "~/components/landing/partner";
import { SiteFooter } from "~/components/site-footer";
import { handleLandingForm } from "~/landing.server";
import { listProducts } from "~/catalog.server";
import { publicOrigin } from "~/lib/origin.server";

export async function loader() {
  return json({ products: await listProducts(), origin: publicOrigin() });
}

/** The newsletter and partnership forms (intents "newsletter" and "partnership"). */
export function action({ request, context }: ActionFunctionArgs) {
  return handleLandingForm(request, context.clientAddress);
}

/** The products do not change when a form is sent or the partner dialog opens. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formMethod === "POST" || currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const title = `${brand.name} | Organic Frozen Peanut-Butter Yogurt Bars & Bites in Los Angeles`;
  const description =
    "High-protein, organic frozen peanut-butter yogurt bars and chocolate-dipped mini bites. 10g protein, no refined sugar, delivered frozen across West LA and the South Bay.";
  const image = `${data?.origin ?? ""}/images/og-shop.png`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: `${data?.origin ?? ""}/` },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: brand.name },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:image", content: image },
  ];
};

export default function Landing() {
  const { products } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() ?? null;
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <PromoBanner />
      <LandingHeader />
      <main id="main">
        <Hero
          bar={products.find((product) => product.category === "bars")}
          bites={products.find((product) => product.category === "bites")}
        />
        <ProductsSection products={products} />
        <WhySection />
        <NutritionSection />
        <StorySection />
        <LocationsSection />
        <NewsletterSection result={result} />
        <PartnerSection result={result} />
      </main>
      <SiteFooter onLanding />
    </>
  );
}
