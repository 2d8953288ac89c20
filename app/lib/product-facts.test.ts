import { describe, expect, it } from "vitest";
import { catalogue } from "../../prisma/catalogue";
import {
  advisoryText,
  allergenStatement,
  factsFor,
  ingredientInfo,
  nutritionPanel,
  organicIngredients,
  productFacts,
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
    expect(nutritionPanel(productFacts["bar-banana-pb"]!.nutrition)).toEqual({
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
    expect(nutritionPanel(productFacts["bites-banana"]!.nutrition)).toEqual({
      serving: "Per carton of 10 bites",
      rows: [
        { label: "Protein per bite", value: "2g" },
        { label: "Protein per carton", value: "20g" },
        { label: "Bites per carton", value: "10" },
      ],
    });
  });
});
