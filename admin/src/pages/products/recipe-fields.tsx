import { Checkbox, Grid, Group, Image, Input, Radio, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import {
  allergenName,
  allergens,
  allergensOf,
  ingredientInfo,
  nutrientInfo,
  nutrients,
  nutritionClaims,
  organicIngredients,
  type Allergen,
  type Ingredient,
  type Nutrient,
  type NutritionFacts,
} from "@shop/product-facts";
import { useEffect, useId, useState, type ChangeEvent, type ReactNode } from "react";

/**
 * What Add product and a product's page share (decision 096): its range, its
 * ingredients and allergens, its Nutrition Facts and its picture, with the
 * same words and rules on both. Values stay text until the server reads them.
 */

/** The recipe as a form holds it. */
export type RecipeValues = {
  category: "bars" | "bites";
  ingredients: Ingredient[];
  allergens: Allergen[];
  nutrition: NutritionValues;
};

/** The label as typed: the serving's grams and each line per 100 g. */
export type NutritionValues = { servingGrams: string; per100g: Record<Nutrient, string> };

/** A label as its fields start: a product's facts, or empty. */
export function nutritionValues(facts: NutritionFacts | null): NutritionValues {
  return {
    servingGrams: facts ? String(facts.servingGrams) : "",
    per100g: Object.fromEntries(nutrients.map((nutrient) => [nutrient, facts ? String(facts.per100g[nutrient]) : ""])) as Record<Nutrient, string>,
  };
}

const typed = (text: string) => {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  // A number goes as a number, anything else as typed, for the server to refuse with its message.
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
};

/** The label as a save sends it: null when every field is empty (none stated), else each figure, a missing one left out for the server to name. */
export function nutritionBody(values: NutritionValues): NutritionFacts | null {
  const fields = [values.servingGrams, ...nutrients.map((nutrient) => values.per100g[nutrient])];
  if (fields.every((field) => field.trim() === "")) return null;
  // The server checks every figure (app/models/product-facts.server.ts): this is the shape it reads, not a promise it holds.
  return {
    servingGrams: typed(values.servingGrams),
    per100g: Object.fromEntries(nutrients.map((nutrient) => [nutrient, typed(values.per100g[nutrient])])),
  } as NutritionFacts;
}

/** What a label's figures would make the shop claim, while they are all numbers: the server derives the same. */
function claimsPreview(values: NutritionValues) {
  const body = nutritionBody(values);
  if (!body) return { state: "none" as const };
  const numbers = [body.servingGrams, ...nutrients.map((nutrient) => body.per100g[nutrient])];
  if (!numbers.every((value) => typeof value === "number")) return { state: "incomplete" as const };
  return { state: "ready" as const, claims: nutritionClaims({ per: "label", ...body }) };
}

const units: Record<Nutrient, string> = Object.fromEntries(
  nutrients.map((nutrient) => [nutrient, nutrient === "calories" ? "kcal" : nutrient.endsWith("Mg") ? "mg" : "g"]),
) as Record<Nutrient, string>;

/** Range, ingredients (from the seven) and allergens (the ingredients' always declared). */
export function RecipeFields<Values extends RecipeValues>({ form }: { form: UseFormReturnType<Values> }) {
  // Mantine's form types its paths from a generic Values loosely: the fields below are RecipeValues' own.
  const recipe = form as unknown as UseFormReturnType<RecipeValues>;
  const { ingredients, allergens: declared } = recipe.getValues();
  const brought = allergensOf(ingredients);
  return (
    <>
      <Radio.Group label="Range" {...recipe.getInputProps("category")} required>
        <Group mt={6} gap="lg">
          <Radio value="bars" label="100g bars" />
          <Radio value="bites" label="Mini bites (carton of 10)" />
        </Group>
      </Radio.Group>
      <Checkbox.Group
        label="Ingredients"
        description="From the shop's seven organic ingredients"
        {...recipe.getInputProps("ingredients")}
        onChange={(value) =>
          recipe.setFieldValue(
            "ingredients",
            organicIngredients.filter((ingredient) => value.includes(ingredient)),
          )
        }
        required
      >
        <Grid mt={6} gutter={6}>
          {organicIngredients.map((ingredient) => (
            <Grid.Col key={ingredient} span={{ base: 12, xs: 6 }}>
              <Checkbox value={ingredient} label={ingredientInfo[ingredient].name} />
            </Grid.Col>
          ))}
        </Grid>
      </Checkbox.Group>
      <Checkbox.Group
        label="Allergens"
        description="The ones its ingredients bring are always declared"
        {...recipe.getInputProps("allergens")}
        value={allergens.filter((allergen) => brought.includes(allergen) || declared.includes(allergen))}
        onChange={(value) =>
          recipe.setFieldValue(
            "allergens",
            allergens.filter((allergen) => value.includes(allergen) && !brought.includes(allergen)),
          )
        }
      >
        <Group mt={6} gap="lg">
          {allergens.map((allergen) => (
            <Checkbox
              key={allergen}
              value={allergen}
              label={brought.includes(allergen) ? `${allergenName[allergen]} (from its ingredients)` : allergenName[allergen]}
              disabled={brought.includes(allergen)}
            />
          ))}
        </Group>
      </Checkbox.Group>
    </>
  );
}

/** The Nutrition Facts per 100 g and the serving's weight, with the claims they would make. */
export function NutritionFields<Values extends RecipeValues>({ form, stated }: { form: UseFormReturnType<Values>; stated?: string[] }) {
  const recipe = form as unknown as UseFormReturnType<RecipeValues>;
  const { category, nutrition } = recipe.getValues();
  const preview = claimsPreview(nutrition);
  const titleId = useId();
  return (
    <Stack gap="xs" component="fieldset" className="plain-fieldset" aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId}>
        Nutrition Facts
      </Title>
      <Text size="sm" c="dimmed">
        Per 100 g, as your lab or recipe calculator states them; the shop prints the US label per serving and per 100 g. Leave every field empty to state none:
        the product then makes no nutrition claim.
      </Text>
      <TextInput
        label={`Serving size: 1 ${category === "bars" ? "bar" : "carton"} (g)`}
        {...recipe.getInputProps("nutrition.servingGrams")}
        inputMode="decimal"
        w={220}
      />
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm" verticalSpacing="xs">
        {nutrients.map((nutrient) => (
          <TextInput
            key={nutrient}
            label={`${nutrientInfo[nutrient].name} (${units[nutrient]})`}
            {...recipe.getInputProps(`nutrition.per100g.${nutrient}`)}
            inputMode="decimal"
          />
        ))}
      </SimpleGrid>
      <Text size="sm" role="status" data-testid="claims-preview">
        {preview.state === "ready"
          ? preview.claims.length > 0
            ? `Its card and page will say: ${preview.claims.join(" · ")}`
            : "These facts make no claim on its card or page."
          : preview.state === "incomplete"
            ? "Fill in every figure, in numbers, to see the claims they make."
            : stated && stated.length > 0
              ? `No label of its own: it says what the requirements state (${stated.join(" · ")}).`
              : "No facts stated: its card and page make no nutrition claim."}
      </Text>
    </Stack>
  );
}

/** What the picture shows, read aloud: the same field on Add product and a product's page. */
export function PictureDescription<Values extends { imageAlt: string }>({ form }: { form: UseFormReturnType<Values> }) {
  const described = form as unknown as UseFormReturnType<{ imageAlt: string }>;
  return (
    <Textarea
      label="Picture description"
      description="What the picture shows, read aloud to visitors who cannot see it"
      {...described.getInputProps("imageAlt")}
      autosize
      minRows={2}
      required
      maxLength={200}
    />
  );
}

/** The server's limit: said before a large file is sent at all. */
const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
const PICTURE_TYPES = "image/jpeg,image/png,image/webp";
const TOO_LARGE = "The picture is larger than 5 MB: pictures can be at most 5 MB.";

/** A picture chosen for a product, with its preview and the size check the server makes too. */
export function usePicture() {
  const [picture, setPicture] = useState<File | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0] ?? null;
    setPicture(file);
    setTooLarge(Boolean(file && file.size > MAX_PICTURE_BYTES));
  };
  return { picture, error: tooLarge ? TOO_LARGE : null, choose };
}

/** The file field and the preview as the shop's card will crop it. */
export function PictureInput({
  picture,
  error,
  onChange,
  label = "Picture",
  required = false,
}: {
  picture: File | null;
  error: ReactNode;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  label?: string;
  required?: boolean;
}) {
  const preview = usePreview(picture);
  const id = useId();
  return (
    <>
      <Input.Wrapper
        label={label}
        description="JPEG, PNG or WebP, at most 5 MB, at least 800 × 600 pixels; shown cropped to 4:3"
        error={error}
        required={required}
        id={id}
      >
        <input
          id={id}
          className="file-input"
          type="file"
          accept={PICTURE_TYPES}
          onChange={onChange}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-description${error ? ` ${id}-error` : ""}`}
          required={required}
        />
      </Input.Wrapper>
      {preview ? (
        <figure className="picture-preview">
          <Image src={preview} alt="Preview of the chosen picture" radius="md" fit="cover" className="picture-preview__image" />
          <Text component="figcaption" size="xs" c="dimmed">
            {picture?.name}, {formatBytes(picture?.size ?? 0)}: as the shop&apos;s card will crop it
          </Text>
        </figure>
      ) : (
        <Text size="sm" c="dimmed" className="picture-preview picture-preview--empty">
          No picture chosen yet.
        </Text>
      )}
    </>
  );
}

/**
 * The chosen file as a data: URL for its preview (the shop's Content-Security-Policy
 * lets pictures come from the shop and data: URLs only); null while none is chosen
 * or it is being read.
 */
function usePreview(file: File | null) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setUrl(typeof reader.result === "string" ? reader.result : null);
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return url;
}

function formatBytes(bytes: number) {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}
