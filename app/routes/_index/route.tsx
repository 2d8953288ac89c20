import { type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { brand } from "~/lib/brand";
import { Hero, LandingHeader, LocationsSection, NutritionSection, ProductsSection, PromoBanner, StorySection, WhySection } from "~/components/landing/sections";
import { NewsletterSection } from "~/routes/_index/newsletter";
import { PartnerSection } from "~/routes/_index/partner";
import { SiteFooter } from "~/components/site-footer";
import { handleLandingForm, landingFormConstraints, type LandingFormResult } from "~/routes/_index/landing.server";
import { newsletterMessages, partnershipMessages } from "~/lib/messages";
import { isRequestFailed, sendOrFail } from "~/lib/request-failure";
import { listProducts } from "~/models/catalog.server";
import { publicOrigin } from "~/utils/origin.server";
import { publicPageMeta } from "~/lib/seo";
import { barNutrition } from "~/lib/product-facts";

export async function loader() {
  return { products: await listProducts(), origin: publicOrigin(), constraints: landingFormConstraints };
}

/** The newsletter and partnership forms (intents "newsletter" and "partnership"). */
export function action({ request, context }: ActionFunctionArgs) {
  return handleLandingForm(request, context.clientAddress);
}

/**
 * With JavaScript: a form whose post gets no answer (network, a failed shop, no
 * answer in time) gets the spec's failure message, with everything typed kept
 * and the partner dialog still open.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<LandingFormResult> {
  const sent = await request.clone().formData();
  const answer = await sendOrFail(() => serverAction<typeof action>());
  if (!isRequestFailed(answer)) return answer;
  const form = sent.get("intent") === "partnership" ? "partnership" : "newsletter";
  const values = Object.fromEntries([...sent].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const toast = form === "newsletter" ? newsletterMessages.failed : partnershipMessages.failed;
  return { form, ok: false, toast, values, fieldErrors: {} };
}

/** The products do not change when a form is sent or the partner dialog opens. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formMethod === "POST" || currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  publicPageMeta({
    title: `${brand.name} | Organic Frozen Peanut-Butter Yogurt Bars & Bites in Los Angeles`,
    description: `High-protein, organic frozen peanut-butter yogurt bars and chocolate-dipped mini bites. ${barNutrition.proteinGrams}g protein, no refined sugar, delivered frozen across West LA and the South Bay.`,
    origin: data?.origin ?? "",
    path: "/",
  });

export default function Landing() {
  const { products, constraints } = useLoaderData<typeof loader>();
  const result = useActionData<typeof clientAction>() ?? null;
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <PromoBanner />
      <LandingHeader />
      <main id="main">
        <Hero bar={products.find((product) => product.category === "bars")} bites={products.find((product) => product.category === "bites")} />
        <ProductsSection products={products} />
        <WhySection />
        <NutritionSection />
        <StorySection />
        <LocationsSection />
        <NewsletterSection result={result} constraints={constraints.newsletter} />
        <PartnerSection result={result} constraints={constraints.partnership} />
      </main>
      <SiteFooter onLanding />
    </>
  );
}
