import { z } from "zod";
import { factsFor, organicIngredients, allergens, type AllergyLabel, type ProductFacts } from "~/lib/product-facts";

/**
 * Where a product's facts come from: the founding six's from
 * app/lib/product-facts.ts (decision 020), an owner-added product's from its
 * Product.facts column, written by create-product (decision 065). The column
 * is read back through this schema, so a row that does not hold facts shows
 * "Ask us about allergens" rather than something wrong.
 */

const [firstIngredient, ...otherIngredients] = organicIngredients;
const [firstAllergen, ...otherAllergens] = allergens;
const ingredient = z.enum([firstIngredient!, ...otherIngredients]);
const allergen = z.enum([firstAllergen!, ...otherAllergens]);

const storedFacts = z.object({
  ingredients: z.array(z.object({ ingredient, detail: z.string().optional() })).min(1),
  allergens: z.array(allergen),
  advisories: z.array(z.literal("honey-infants")),
  nutrition: z.discriminatedUnion("per", [
    z.object({
      per: z.literal("bar"),
      barGrams: z.number(),
      proteinGrams: z.number(),
      fatGrams: z.number(),
      refinedSugarGrams: z.number(),
      caloriesBelow: z.number(),
    }),
    z.object({ per: z.literal("carton"), bitesPerCarton: z.number(), proteinGramsPerBite: z.number(), proteinGramsPerCarton: z.number() }),
  ]),
}) satisfies z.ZodType<ProductFacts>;

/** A product's facts, or null when the shop has none for it. */
export function productFactsOf(product: { id: string; facts: unknown }): ProductFacts | null {
  const founding = factsFor(product.id);
  if (founding) return founding;
  const parsed = storedFacts.safeParse(product.facts);
  return parsed.success ? parsed.data : null;
}

/** The part of the facts every card and cart line shows. */
export function allergyLabelOf(facts: ProductFacts | null): AllergyLabel | null {
  return facts ? { allergens: facts.allergens, advisories: facts.advisories } : null;
}
