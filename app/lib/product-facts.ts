/**
 * What is in each product, what it means for someone with an allergy or for
 * a parent, and its nutrition, keyed by the catalogue's product ids
 * (prisma/catalogue.ts). Browser-safe: the product page, the product cards and
 * the cart drawer all read it. The founding six's facts are not in the
 * database: operators edit a product's name, description, price and stock,
 * never its recipe (decision 020). A product the owner adds (create-product)
 * keeps its facts, made by `recipeFacts` below, in Product.facts (decision 065).
 */

export type Ingredient = "greek-yogurt" | "peanut-butter" | "honey" | "fruit" | "chocolate" | "lemon-juice" | "sea-salt";

/** Allergens named as a label names them ("Contains: peanuts, milk"). */
export type Allergen = "peanuts" | "milk";

export const allergenName: Record<Allergen, string> = { peanuts: "Peanuts", milk: "Milk" };

/** The allergens in the order a label names them. */
export const allergens: readonly Allergen[] = ["peanuts", "milk"];

/** Warnings that are not allergies. */
export type Advisory = "honey-infants";

/** The seven organic ingredients of requirements §1, in the spec's order. */
export const organicIngredients: readonly Ingredient[] = ["greek-yogurt", "peanut-butter", "honey", "fruit", "chocolate", "lemon-juice", "sea-salt"];

/**
 * Each ingredient's name and the allergens it brings. The catalogue declares
 * its chocolate as fair-trade (dark) chocolate and nothing more, so it adds no
 * allergen of its own; milk is declared for every product anyway (Greek yogurt).
 */
export const ingredientInfo: Record<Ingredient, { name: string; allergens: readonly Allergen[] }> = {
  "greek-yogurt": { name: "Greek yogurt", allergens: ["milk"] },
  "peanut-butter": { name: "Peanut butter", allergens: ["peanuts"] },
  honey: { name: "Honey", allergens: [] },
  fruit: { name: "Fruit", allergens: [] },
  chocolate: { name: "Fair-trade chocolate", allergens: [] },
  "lemon-juice": { name: "Lemon juice", allergens: [] },
  "sea-salt": { name: "Sea salt", allergens: [] },
};

/** Each warning in full, and short for a small card. */
export const advisoryText: Record<Advisory, { full: string; short: string }> = {
  "honey-infants": {
    full: "Contains honey: not suitable for infants under 12 months.",
    short: "Honey: not for infants under 12 months.",
  },
};

/** Requirements §1: the nutrition facts per 100g bar. */
export type BarNutrition = { per: "bar"; barGrams: number; proteinGrams: number; fatGrams: number; refinedSugarGrams: number; caloriesBelow: number };
/** Requirements §1: what the spec says about a carton of bites, and nothing it does not. */
export type CartonNutrition = { per: "carton"; bitesPerCarton: number; proteinGramsPerBite: number; proteinGramsPerCarton: number };
export type Nutrition = BarNutrition | CartonNutrition;

export const barNutrition: BarNutrition = { per: "bar", barGrams: 100, proteinGrams: 10, fatGrams: 8, refinedSugarGrams: 0, caloriesBelow: 200 };
export const cartonNutrition: CartonNutrition = { per: "carton", bitesPerCarton: 10, proteinGramsPerBite: 2, proteinGramsPerCarton: 20 };

/** What the shop calls each range, in its filters, cards and links. */
export const rangeNames: Record<"bars" | "bites", string> = { bars: `${barNutrition.barGrams}g Bars`, bites: "Mini Bites" };

export type ProductIngredient = { ingredient: Ingredient; /** What the catalogue says about it for this product. */ detail?: string };

export type ProductFacts = {
  ingredients: readonly ProductIngredient[];
  /** Kept as data, as a label states it; app/lib/product-facts.test.ts checks it against the ingredients. */
  allergens: readonly Allergen[];
  advisories: readonly Advisory[];
  nutrition: Nutrition;
};

/*
 * Every bar and bite starts from one base: Greek yogurt, peanut butter, honey
 * (requirements §1: no refined sugar), lemon juice and sea salt, and is dipped in
 * chocolate. Fruit is the flavour, so the two chocolate products have none:
 * their descriptions name no fruit. Where the catalogue does not say whether
 * a base ingredient is in a product, it is listed: a warning too many harms
 * no one, a missing honey or allergen warning can. The details repeat what
 * the catalogue's descriptions and pictures say.
 */
const yogurt: ProductIngredient = { ingredient: "greek-yogurt", detail: "organic, creamy and tangy" };
const peanutButter: ProductIngredient = { ingredient: "peanut-butter", detail: "roasted" };
const honey: ProductIngredient = { ingredient: "honey", detail: "a touch, instead of refined sugar" };
const lemonJuice: ProductIngredient = { ingredient: "lemon-juice" };
const seaSalt: ProductIngredient = { ingredient: "sea-salt", detail: "a pinch" };
const halfDipped: ProductIngredient = { ingredient: "chocolate", detail: "fair-trade, half-dipped" };

function recipe(parts: { fruit?: ProductIngredient; chocolate: ProductIngredient; peanutButter?: ProductIngredient; nutrition: Nutrition }): ProductFacts {
  const fruit = parts.fruit ? [parts.fruit] : [];
  return {
    ingredients: [yogurt, parts.peanutButter ?? peanutButter, honey, ...fruit, parts.chocolate, lemonJuice, seaSalt],
    allergens: ["peanuts", "milk"],
    advisories: ["honey-infants"],
    nutrition: parts.nutrition,
  };
}

export const productFacts: Record<string, ProductFacts> = {
  "bar-chocolate-pb": recipe({
    peanutButter: { ingredient: "peanut-butter", detail: "roasted, with crunchy peanuts on top" },
    chocolate: { ingredient: "chocolate", detail: "fair-trade dark chocolate, fully dipped" },
    nutrition: barNutrition,
  }),
  "bar-strawberry-pb": recipe({
    fruit: { ingredient: "fruit", detail: "sun-ripened organic strawberries" },
    chocolate: halfDipped,
    nutrition: barNutrition,
  }),
  "bar-banana-pb": recipe({ fruit: { ingredient: "fruit", detail: "ripe organic banana" }, chocolate: halfDipped, nutrition: barNutrition }),
  "bites-variety": recipe({ chocolate: { ingredient: "chocolate", detail: "fair-trade, every bite dipped" }, nutrition: cartonNutrition }),
  "bites-strawberry": recipe({ fruit: { ingredient: "fruit", detail: "organic strawberries" }, chocolate: halfDipped, nutrition: cartonNutrition }),
  "bites-banana": recipe({ fruit: { ingredient: "fruit", detail: "organic banana" }, chocolate: halfDipped, nutrition: cartonNutrition }),
};

export function factsFor(productId: string): ProductFacts | null {
  return productFacts[productId] ?? null;
}

/** What the shop tells a visitor about allergies on a card or a cart line: a product's allergens and warnings. */
export type AllergyLabel = Pick<ProductFacts, "allergens" | "advisories">;

/** The allergens these ingredients bring, in label order. */
export function allergensOf(ingredients: readonly Ingredient[]): Allergen[] {
  return allergens.filter((allergen) => ingredients.some((ingredient) => ingredientInfo[ingredient].allergens.includes(allergen)));
}

/**
 * The facts of a product the owner adds: the ingredients ticked (in the
 * spec's order), every allergen they bring plus any the owner declares
 * (a warning too many harms no one, a missing one can), the honey warning
 * where there is honey, and its range's nutrition.
 */
export function recipeFacts(recipe: { category: "bars" | "bites"; ingredients: readonly Ingredient[]; allergens?: readonly Allergen[] }): ProductFacts {
  const declared = new Set([...allergensOf(recipe.ingredients), ...(recipe.allergens ?? [])]);
  return {
    ingredients: organicIngredients.filter((ingredient) => recipe.ingredients.includes(ingredient)).map((ingredient) => ({ ingredient })),
    allergens: allergens.filter((allergen) => declared.has(allergen)),
    advisories: recipe.ingredients.includes("honey") ? ["honey-infants"] : [],
    nutrition: recipe.category === "bars" ? barNutrition : cartonNutrition,
  };
}

/** "Contains: peanuts, milk" */
export function allergenStatement(facts: AllergyLabel) {
  return facts.allergens.length > 0 ? `Contains: ${facts.allergens.join(", ")}` : "No major allergens";
}

/** What one item of a range is: "100g bar", "carton of 10 bites". */
export function servingOf(nutrition: Nutrition) {
  return nutrition.per === "bar" ? `${nutrition.barGrams}g bar` : `carton of ${nutrition.bitesPerCarton} bites`;
}

/** A nutrition panel's heading and rows, as the landing page and the product page show them. */
export function nutritionPanel(nutrition: Nutrition): { serving: string; rows: { label: string; value: string }[] } {
  if (nutrition.per === "bar") {
    return {
      serving: `Per ${servingOf(nutrition)}`,
      rows: [
        { label: "Protein", value: `${nutrition.proteinGrams}g` },
        { label: "Fat", value: `${nutrition.fatGrams}g` },
        { label: "Refined sugars", value: `${nutrition.refinedSugarGrams}g` },
        { label: "Calories", value: `<${nutrition.caloriesBelow}` },
      ],
    };
  }
  return {
    serving: `Per ${servingOf(nutrition)}`,
    rows: [
      { label: "Protein per bite", value: `${nutrition.proteinGramsPerBite}g` },
      { label: "Protein per carton", value: `${nutrition.proteinGramsPerCarton}g` },
      { label: "Bites per carton", value: String(nutrition.bitesPerCarton) },
    ],
  };
}

/** The two or three facts a product page leads with. */
export function nutritionHighlights(nutrition: Nutrition): string[] {
  if (nutrition.per === "bar") {
    return [`${nutrition.proteinGrams}g protein`, `Under ${nutrition.caloriesBelow} calories`, `${nutrition.refinedSugarGrams}g refined sugar`];
  }
  return [
    `${nutrition.bitesPerCarton} bites per carton`,
    `${nutrition.proteinGramsPerBite}g protein each`,
    `${nutrition.proteinGramsPerCarton}g protein per carton`,
  ];
}

/** Which of a product's ingredients bring each of its allergens: peanuts ← Peanut butter. */
export function allergenSources(facts: ProductFacts): { allergen: Allergen; ingredients: string[] }[] {
  return facts.allergens.map((allergen) => ({
    allergen,
    ingredients: facts.ingredients
      .filter((entry) => ingredientInfo[entry.ingredient].allergens.includes(allergen))
      .map((entry) => ingredientInfo[entry.ingredient].name),
  }));
}
