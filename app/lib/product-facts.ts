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

/** Requirements §1: what the spec states about a 100g bar (the founding bars' facts, decision 020). */
export type BarNutrition = { per: "bar"; barGrams: number; proteinGrams: number; fatGrams: number; refinedSugarGrams: number; caloriesBelow: number };
/** Requirements §1: what the spec says about a carton of bites, and nothing it does not. */
export type CartonNutrition = { per: "carton"; bitesPerCarton: number; proteinGramsPerBite: number; proteinGramsPerCarton: number };
/** What the requirements state for the founding six: a few figures, not a whole label. */
export type StatedNutrition = BarNutrition | CartonNutrition;

/**
 * The lines of the US Nutrition Facts label (21 CFR 101.9), in its order:
 * what the owner states for a product, per 100 g (decision 096).
 */
export const nutrients = [
  "calories",
  "totalFatG",
  "saturatedFatG",
  "transFatG",
  "cholesterolMg",
  "sodiumMg",
  "totalCarbsG",
  "fiberG",
  "totalSugarsG",
  "addedSugarsG",
  "proteinG",
] as const;
export type Nutrient = (typeof nutrients)[number];

/**
 * A product's own nutrition facts, as create-product and update-product take
 * them and get-products answers them: per 100 g, and what one serving (a bar,
 * or a carton of bites) weighs.
 */
export type NutritionFacts = { servingGrams: number; per100g: Record<Nutrient, number> };
/** A product's facts as its page reads them: the requirements' statements, or its own label. */
export type Nutrition = StatedNutrition | ({ per: "label" } & NutritionFacts);

/** FDA rounding (21 CFR 101.9(c)): what the label prints for an amount, and the figure a claim may use. */
type Rounded = { text: string; amount: number };
const nearest = (amount: number, step: number) => Math.round(amount / step) * step;
const grams = (amount: number): Rounded =>
  amount < 0.5 ? { text: "0g", amount: 0 } : amount < 1 ? { text: "less than 1g", amount: 0 } : { text: `${nearest(amount, 1)}g`, amount: nearest(amount, 1) };
const fatGrams = (amount: number): Rounded => {
  const rounded = amount < 0.5 ? 0 : amount < 5 ? nearest(amount, 0.5) : nearest(amount, 1);
  return { text: `${rounded}g`, amount: rounded };
};

/** Each line's name on the label, its indent under the line above, its rounding and its Daily Value (2,000 calories a day; null where the label gives none). */
export const nutrientInfo: Record<Nutrient, { name: string; indent: 0 | 1 | 2; dailyValue: number | null; round: (amount: number) => Rounded }> = {
  calories: {
    name: "Calories",
    indent: 0,
    dailyValue: null,
    round: (amount) => {
      const rounded = amount < 5 ? 0 : amount <= 50 ? nearest(amount, 5) : nearest(amount, 10);
      return { text: String(rounded), amount: rounded };
    },
  },
  totalFatG: { name: "Total Fat", indent: 0, dailyValue: 78, round: fatGrams },
  saturatedFatG: { name: "Saturated Fat", indent: 1, dailyValue: 20, round: fatGrams },
  transFatG: { name: "Trans Fat", indent: 1, dailyValue: null, round: fatGrams },
  cholesterolMg: {
    name: "Cholesterol",
    indent: 0,
    dailyValue: 300,
    round: (amount) =>
      amount < 2
        ? { text: "0mg", amount: 0 }
        : amount <= 5
          ? { text: "less than 5mg", amount: 0 }
          : { text: `${nearest(amount, 5)}mg`, amount: nearest(amount, 5) },
  },
  sodiumMg: {
    name: "Sodium",
    indent: 0,
    dailyValue: 2300,
    round: (amount) => {
      const rounded = amount < 5 ? 0 : amount <= 140 ? nearest(amount, 5) : nearest(amount, 10);
      return { text: `${rounded}mg`, amount: rounded };
    },
  },
  totalCarbsG: { name: "Total Carbohydrate", indent: 0, dailyValue: 275, round: grams },
  fiberG: { name: "Dietary Fiber", indent: 1, dailyValue: 28, round: grams },
  totalSugarsG: { name: "Total Sugars", indent: 1, dailyValue: null, round: grams },
  addedSugarsG: { name: "Includes Added Sugars", indent: 2, dailyValue: 50, round: grams },
  proteinG: { name: "Protein", indent: 0, dailyValue: null, round: grams },
};

/** How much of a nutrient one serving holds, unrounded. */
export function perServing(facts: NutritionFacts, nutrient: Nutrient) {
  return (facts.per100g[nutrient] * facts.servingGrams) / 100;
}

/** One line of a product's label: the amount per serving as printed, its % Daily Value, and the amount per 100 g. */
export type LabelRow = { nutrient: Nutrient; name: string; indent: 0 | 1 | 2; serving: string; dailyValue: string | null; per100g: string };

/** The label's lines, each rounded as the FDA rounds it. */
export function labelRows(facts: NutritionFacts): LabelRow[] {
  return nutrients.map((nutrient) => {
    const info = nutrientInfo[nutrient];
    const serving = info.round(perServing(facts, nutrient));
    return {
      nutrient,
      name: info.name,
      indent: info.indent,
      serving: serving.text,
      dailyValue: info.dailyValue === null ? null : `${Math.round((perServing(facts, nutrient) / info.dailyValue) * 100)}%`,
      per100g: info.round(facts.per100g[nutrient]).text,
    };
  });
}

/**
 * The claims a product's card and page make, derived from its facts and
 * nothing else (decision 096): a protein figure from 5 g a serving (10% of
 * the Daily Value, a "good source"), "Under 200 calories" (or 100) where a
 * serving is, "0g added sugar" where the label rounds it to 0. The founding
 * six say what the requirements state; a product without facts claims nothing.
 */
export function nutritionClaims(nutrition: Nutrition | null): string[] {
  if (!nutrition) return [];
  if (nutrition.per !== "label") return statedHighlights(nutrition);
  const serving = (nutrient: Nutrient) => nutrientInfo[nutrient].round(perServing(nutrition, nutrient)).amount;
  const claims: string[] = [];
  const protein = serving("proteinG");
  if (protein >= 5) claims.push(`${protein}g protein`);
  const calories = serving("calories");
  if (calories < 100) claims.push("Under 100 calories");
  else if (calories < 200) claims.push("Under 200 calories");
  if (serving("addedSugarsG") === 0) claims.push("0g added sugar");
  return claims;
}

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
  /** Null for a product whose owner has not stated its facts: it makes no nutrition claim. */
  nutrition: Nutrition | null;
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

/** A founding product's facts: what the requirements state of its range. */
type FoundingFacts = ProductFacts & { nutrition: StatedNutrition };

function recipe(parts: {
  fruit?: ProductIngredient;
  chocolate: ProductIngredient;
  peanutButter?: ProductIngredient;
  nutrition: StatedNutrition;
}): FoundingFacts {
  const fruit = parts.fruit ? [parts.fruit] : [];
  return {
    ingredients: [yogurt, parts.peanutButter ?? peanutButter, honey, ...fruit, parts.chocolate, lemonJuice, seaSalt],
    allergens: ["peanuts", "milk"],
    advisories: ["honey-infants"],
    nutrition: parts.nutrition,
  };
}

export const productFacts: Record<string, FoundingFacts> = {
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
 * The facts of a product the owner adds or edits: the ingredients ticked (in
 * the spec's order, each keeping what the catalogue says of it), every
 * allergen they bring plus any the owner declares (a warning too many harms
 * no one, a missing one can), the honey warning where there is honey, and
 * the nutrition the owner states, or none: never its range's (decision 096).
 */
export function recipeFacts(recipe: {
  ingredients: readonly Ingredient[];
  allergens?: readonly Allergen[];
  nutrition: Nutrition | null;
  /** The facts it had, whose ingredient details are kept. */
  before?: ProductFacts | null;
}): ProductFacts {
  const declared = new Set([...allergensOf(recipe.ingredients), ...(recipe.allergens ?? [])]);
  const detail = (ingredient: Ingredient) => recipe.before?.ingredients.find((entry) => entry.ingredient === ingredient)?.detail;
  return {
    ingredients: organicIngredients
      .filter((ingredient) => recipe.ingredients.includes(ingredient))
      .map((ingredient) => {
        const said = detail(ingredient);
        return said ? { ingredient, detail: said } : { ingredient };
      }),
    allergens: allergens.filter((allergen) => declared.has(allergen)),
    advisories: recipe.ingredients.includes("honey") ? ["honey-infants"] : [],
    nutrition: recipe.nutrition,
  };
}

/** A label's facts as the functions answer them, or null where the product has none of its own. */
export function labelFacts(nutrition: Nutrition | null): NutritionFacts | null {
  return nutrition?.per === "label" ? { servingGrams: nutrition.servingGrams, per100g: nutrition.per100g } : null;
}

/** "Contains: peanuts, milk" */
export function allergenStatement(facts: AllergyLabel) {
  return facts.allergens.length > 0 ? `Contains: ${facts.allergens.join(", ")}` : "No major allergens";
}

/** What one item of a range is: "100g bar", "carton of 10 bites". */
export function servingOf(category: "bars" | "bites") {
  return category === "bars" ? `${barNutrition.barGrams}g bar` : `carton of ${cartonNutrition.bitesPerCarton} bites`;
}

/** The founding six's panel, heading and rows, as the landing page and their product pages show what the requirements state. */
export function statedPanel(nutrition: StatedNutrition): { serving: string; rows: { label: string; value: string }[] } {
  if (nutrition.per === "bar") {
    return {
      serving: `Per ${servingOf("bars")}`,
      rows: [
        { label: "Protein", value: `${nutrition.proteinGrams}g` },
        { label: "Fat", value: `${nutrition.fatGrams}g` },
        { label: "Refined sugars", value: `${nutrition.refinedSugarGrams}g` },
        { label: "Calories", value: `<${nutrition.caloriesBelow}` },
      ],
    };
  }
  return {
    serving: `Per ${servingOf("bites")}`,
    rows: [
      { label: "Protein per bite", value: `${nutrition.proteinGramsPerBite}g` },
      { label: "Protein per carton", value: `${nutrition.proteinGramsPerCarton}g` },
      { label: "Bites per carton", value: String(nutrition.bitesPerCarton) },
    ],
  };
}

/** The two or three facts a founding product's page leads with, as the requirements state them. */
export function statedHighlights(nutrition: StatedNutrition): string[] {
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
