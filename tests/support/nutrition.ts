import type { NutritionFacts } from "../../app/lib/product-facts";

/**
 * A made-up product's own label, as the owner states it (decision 096): a
 * 90 g bar, per 100 g, 210 kcal, 9 g fat (5 saturated), 12 g protein, honey
 * as its added sugar. The unit tests of the label and the create-product and
 * update-product tests read the same one.
 */
export const mangoLabel: NutritionFacts = {
  servingGrams: 90,
  per100g: {
    calories: 210,
    totalFatG: 9,
    saturatedFatG: 5,
    transFatG: 0,
    cholesterolMg: 12,
    sodiumMg: 95,
    totalCarbsG: 22,
    fiberG: 2.5,
    totalSugarsG: 15,
    addedSugarsG: 6,
    proteinG: 12,
  },
};
