import { describe, expect, it } from "vitest";
import { mangoLabel } from "../../tests/support/nutrition";
import { catalogue } from "../../prisma/catalogue";
import {
  advisoryText,
  allergenStatement,
  factsFor,
  ingredientInfo,
  statedPanel,
  organicIngredients,
  productFacts,
  barNutrition,
  cartonNutrition,
  labelFacts,
  labelRows,
  nutritionClaims,
  recipeFacts,
  type Allergen,
} from "~/lib/product-facts";

const each = catalogue.map((product) => [product.id, product] as const);

describe("product facts cover the catalogue", () => {
  it("has facts for every catalogue product, and for nothing else", () => {
    expect(Object.keys(productFacts).sort()).toEqual(catalogue.map((product) => product.id).sort());
  });

  it("knows nothing about an unknown product", () => {
    expect(factsFor("bar-unknown")).toBeNull();
  });

  it("names requirements §1's seven organic ingredients, in its order", () => {
    expect(organicIngredients.map((ingredient) => ingredientInfo[ingredient].name)).toEqual([
      "Greek yogurt",
      "Peanut butter",
      "Honey",
      "Fruit",
      "Fair-trade chocolate",
      "Lemon juice",
      "Sea salt",
    ]);
  });
});

describe.each(each)("%s", (id, product) => {
  const facts = factsFor(id)!;
  const has = (ingredient: string) => facts.ingredients.some((entry) => entry.ingredient === ingredient);
  const said = `${product.description} ${product.imageAlt}`.toLowerCase();

  it("uses only the seven organic ingredients, each once, in the spec's order", () => {
    const used = facts.ingredients.map((entry) => entry.ingredient);
    expect(new Set(used).size).toBe(used.length);
    expect(used).toEqual(organicIngredients.filter((ingredient) => used.includes(ingredient)));
  });

  it("declares exactly the allergens its ingredients bring", () => {
    const brought = new Set<Allergen>(facts.ingredients.flatMap((entry) => ingredientInfo[entry.ingredient].allergens));
    expect([...facts.allergens].sort()).toEqual([...brought].sort());
  });

  it("declares peanuts and milk: the catalogue describes peanut butter and yogurt", () => {
    expect(said).toMatch(/peanut/);
    expect(said).toMatch(/yogurt/);
    expect(facts.allergens).toEqual(["peanuts", "milk"]);
    expect(allergenStatement(facts)).toBe("Contains: peanuts, milk");
  });

  it("carries the infant note exactly when it contains honey", () => {
    expect(facts.advisories.includes("honey-infants")).toBe(has("honey"));
    expect(has("honey")).toBe(true);
    expect(advisoryText["honey-infants"].full).toBe("Contains honey: not suitable for infants under 12 months.");
    expect(advisoryText["honey-infants"].short).toMatch(/honey.*infants under 12 months/i);
  });

  it("contains fruit exactly when the catalogue describes one, and chocolate as it shows it", () => {
    expect(has("fruit")).toBe(/strawberr|banana/.test(said));
    expect(has("chocolate")).toBe(/chocolate/.test(said));
  });

  it(`gives the spec's nutrition for ${product.category}`, () => {
    if (product.category === "bars") {
      expect(facts.nutrition).toEqual({ per: "bar", barGrams: 100, proteinGrams: 10, fatGrams: 8, refinedSugarGrams: 0, caloriesBelow: 200 });
    } else {
      expect(facts.nutrition).toEqual({ per: "carton", bitesPerCarton: 10, proteinGramsPerBite: 2, proteinGramsPerCarton: 20 });
    }
  });
});

describe("nutrition panels", () => {
  it("shows a bar's facts as the landing page always has", () => {
    expect(statedPanel(productFacts["bar-banana-pb"]!.nutrition)).toEqual({
      serving: "Per 100g bar",
      rows: [
        { label: "Protein", value: "10g" },
        { label: "Fat", value: "8g" },
        { label: "Refined sugars", value: "0g" },
        { label: "Calories", value: "<200" },
      ],
    });
  });

  it("shows a carton's protein and count, and no figure the spec does not give", () => {
    expect(statedPanel(productFacts["bites-banana"]!.nutrition)).toEqual({
      serving: "Per carton of 10 bites",
      rows: [
        { label: "Protein per bite", value: "2g" },
        { label: "Protein per carton", value: "20g" },
        { label: "Bites per carton", value: "10" },
      ],
    });
  });
});

const mango = mangoLabel;

describe("a product's own label (decision 096)", () => {
  it("lists the US label's lines per serving, rounded as the FDA rounds them, with the Daily Value and per 100 g", () => {
    const rows = Object.fromEntries(labelRows(mango).map((row) => [row.nutrient, row]));
    expect(labelRows(mango).map((row) => row.name)).toEqual([
      "Calories",
      "Total Fat",
      "Saturated Fat",
      "Trans Fat",
      "Cholesterol",
      "Sodium",
      "Total Carbohydrate",
      "Dietary Fiber",
      "Total Sugars",
      "Includes Added Sugars",
      "Protein",
    ]);
    // 210 × 0.9 = 189 → nearest 10 above 50 calories.
    expect(rows.calories).toMatchObject({ serving: "190", per100g: "210", dailyValue: null });
    // 8.1 g fat ≥ 5 g → nearest gram; 10% of 78 g.
    expect(rows.totalFatG).toMatchObject({ serving: "8g", dailyValue: "10%" });
    // 4.5 g saturated < 5 g → nearest half gram.
    expect(rows.saturatedFatG).toMatchObject({ serving: "4.5g", dailyValue: "23%" });
    // 10.8 mg cholesterol → nearest 5 mg; 85.5 mg sodium → nearest 5 mg.
    expect(rows.cholesterolMg).toMatchObject({ serving: "10mg", per100g: "10mg" });
    expect(rows.sodiumMg).toMatchObject({ serving: "85mg", dailyValue: "4%" });
    expect(rows.fiberG).toMatchObject({ serving: "2g", per100g: "3g" });
    expect(rows.addedSugarsG).toMatchObject({ serving: "5g", dailyValue: "11%" });
    expect(rows.proteinG).toMatchObject({ serving: "11g", per100g: "12g", dailyValue: null });
  });

  it("says 'less than' where the FDA has the label say it", () => {
    const trace = { ...mango, per100g: { ...mango.per100g, cholesterolMg: 4, proteinG: 0.8, transFatG: 0.3 }, servingGrams: 100 };
    const rows = Object.fromEntries(labelRows(trace).map((row) => [row.nutrient, row.serving]));
    expect(rows).toMatchObject({ cholesterolMg: "less than 5mg", proteinG: "less than 1g", transFatG: "0g" });
  });

  it("claims only what a serving's rounded facts hold", () => {
    expect(nutritionClaims({ per: "label", ...mango })).toEqual(["11g protein", "Under 200 calories"]);
    const light = { per: "label" as const, servingGrams: 40, per100g: { ...mango.per100g, addedSugarsG: 0.4 } };
    // 4.8 g protein rounds to 5 g; 84 calories → 80; 0.16 g added sugars → 0 g.
    expect(nutritionClaims(light)).toEqual(["5g protein", "Under 100 calories", "0g added sugar"]);
    const rich = { per: "label" as const, servingGrams: 120, per100g: { ...mango.per100g, proteinG: 3 } };
    expect(nutritionClaims(rich)).toEqual([]);
  });

  it("makes the founding six's claims from what the requirements state, and none for a product without facts", () => {
    expect(nutritionClaims(barNutrition)).toEqual(["10g protein", "Under 200 calories", "0g refined sugar"]);
    expect(nutritionClaims(cartonNutrition)).toEqual(["10 bites per carton", "2g protein each", "20g protein per carton"]);
    expect(nutritionClaims(null)).toEqual([]);
  });

  it("gives an added product the owner's facts, never its range's", () => {
    expect(recipeFacts({ ingredients: ["greek-yogurt", "honey"], nutrition: null }).nutrition).toBeNull();
    const facts = recipeFacts({ ingredients: ["honey", "greek-yogurt"], nutrition: { per: "label", ...mango } });
    expect(facts).toMatchObject({ allergens: ["milk"], advisories: ["honey-infants"], nutrition: { per: "label", servingGrams: 90 } });
    expect(facts.ingredients.map((entry) => entry.ingredient)).toEqual(["greek-yogurt", "honey"]);
    expect(labelFacts(facts.nutrition)).toEqual(mango);
    expect(labelFacts(barNutrition)).toBeNull();
  });

  it("keeps what the catalogue says of an ingredient that stays when the recipe is edited", () => {
    const before = productFacts["bar-strawberry-pb"]!;
    const edited = recipeFacts({ ingredients: ["greek-yogurt", "fruit"], nutrition: before.nutrition, before });
    expect(edited.ingredients).toEqual([
      { ingredient: "greek-yogurt", detail: "organic, creamy and tangy" },
      { ingredient: "fruit", detail: "sun-ripened organic strawberries" },
    ]);
    expect(edited.advisories).toEqual([]);
  });
});
