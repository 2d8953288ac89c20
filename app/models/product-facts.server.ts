import { z } from "zod";
import { factsFor, organicIngredients, allergens, nutrients, type AllergyLabel, type Nutrition, type ProductFacts } from "~/lib/product-facts";

/**
 * Where a product's facts come from: the ones the owner saved in its
 * Product.facts column (create-product, update-product: decisions 065, 096),
 * else, for the founding six, app/lib/product-facts.ts (decision 020). The
 * column is read back through this schema, so a row that does not hold facts
 * shows "Ask us about allergens" rather than something wrong.
 */

const [firstIngredient, ...otherIngredients] = organicIngredients;
const [firstAllergen, ...otherAllergens] = allergens;
const ingredient = z.enum([firstIngredient!, ...otherIngredients]);
const allergen = z.enum([firstAllergen!, ...otherAllergens]);

/** A figure of a label: a number of calories, grams or milligrams, at least 0. */
const amount = z
  .number({ required_error: "is required", invalid_type_error: "must be a number" })
  .finite("must be a number")
  .min(0, "cannot be negative")
  .max(100_000, "is too large");

/**
 * A product's own nutrition facts, as create-product and update-product take
 * them: the serving's weight in grams, and each of the label's lines per 100 g.
 * Grams of a part cannot exceed grams of the whole: 100 g holds at most 100 g
 * of fat, and saturated and trans fat are part of total fat, fibre and sugars
 * of carbohydrate, added sugars of sugars.
 */
export const nutritionFactsSchema = z
  .object(
    {
      servingGrams: amount.min(1, "must be at least 1 g").max(5_000, "can be at most 5,000 g"),
      per100g: z.object(Object.fromEntries(nutrients.map((nutrient) => [nutrient, amount])) as Record<(typeof nutrients)[number], typeof amount>, {
        required_error: "is required",
        invalid_type_error: "must be an object of numbers",
      }),
    },
    { invalid_type_error: "must be an object with servingGrams and per100g" },
  )
  .superRefine((facts, ctx) => {
    const per = facts.per100g;
    const over = (nutrient: keyof typeof per, limit: number, message: string) => {
      if (per[nutrient] > limit) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["per100g", nutrient], message });
    };
    for (const nutrient of ["totalFatG", "totalCarbsG", "proteinG"] as const) over(nutrient, 100, "cannot be more than 100 g in 100 g");
    over("saturatedFatG", per.totalFatG, "cannot be more than the total fat");
    over("transFatG", Math.max(0, per.totalFatG - per.saturatedFatG), "cannot be more than the total fat less the saturated fat");
    over("fiberG", per.totalCarbsG, "cannot be more than the total carbohydrate");
    over("totalSugarsG", Math.max(0, per.totalCarbsG - per.fiberG), "cannot be more than the total carbohydrate less the fibre");
    over("addedSugarsG", per.totalSugarsG, "cannot be more than the total sugars");
  });

const stated = z.discriminatedUnion("per", [
  z.object({
    per: z.literal("bar"),
    barGrams: z.number(),
    proteinGrams: z.number(),
    fatGrams: z.number(),
    refinedSugarGrams: z.number(),
    caloriesBelow: z.number(),
  }),
  z.object({ per: z.literal("carton"), bitesPerCarton: z.number(), proteinGramsPerBite: z.number(), proteinGramsPerCarton: z.number() }),
]);

/** A stored label: as create-product checked it, with its tag. */
const storedLabel = z.object({ per: z.literal("label"), servingGrams: z.number(), per100g: z.record(z.enum(nutrients), z.number()) });

const storedFacts = z.object({
  ingredients: z.array(z.object({ ingredient, detail: z.string().optional() })).min(1),
  allergens: z.array(allergen),
  advisories: z.array(z.literal("honey-infants")),
  nutrition: z.unknown(),
});

/**
 * What is stored as a product's nutrition. A label is the owner's own; the
 * requirements' statements belong to the founding six only: an added product
 * made before decision 096 was given its range's copy, which was never its
 * own, and claims nothing.
 */
function storedNutrition(productId: string, value: unknown): Nutrition | null {
  const label = storedLabel.safeParse(value);
  if (label.success && nutrients.every((nutrient) => nutrient in label.data.per100g)) {
    return { per: "label", servingGrams: label.data.servingGrams, per100g: label.data.per100g as Record<(typeof nutrients)[number], number> };
  }
  const statement = stated.safeParse(value);
  return statement.success && factsFor(productId) ? statement.data : null;
}

/** A product's facts, or null when the shop has none for it. */
export function productFactsOf(product: { id: string; facts: unknown }): ProductFacts | null {
  const parsed = storedFacts.safeParse(product.facts);
  if (parsed.success) return { ...parsed.data, nutrition: storedNutrition(product.id, parsed.data.nutrition) };
  return factsFor(product.id);
}

/** The part of the facts every card and cart line shows. */
export function allergyLabelOf(facts: ProductFacts | null): AllergyLabel | null {
  return facts ? { allergens: facts.allergens, advisories: facts.advisories } : null;
}
