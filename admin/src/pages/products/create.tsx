import { Anchor, Button, Card, Checkbox, Grid, Group, Image, Input, Radio, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useCreate, type HttpError } from "@refinedev/core";
import type { ProductJson } from "@shop/owner-records";
import { allergenName, allergens, allergensOf, ingredientInfo, organicIngredients, type Allergen, type Ingredient } from "@shop/product-facts";
import { useEffect, useId, useState, type ChangeEvent } from "react";
import { Link, useNavigate } from "react-router";
import { fieldErrorsNote } from "../../api";
import { ownerOnlyPage } from "../../components/owner-only";
import { answerToasts } from "../../toasts";
import { StockFields } from "./stock-fields";
import { useAdminForm } from "../../forms";

/** The server's limit (create-product): said before a large file is sent at all. */
const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
const PICTURE_TYPES = "image/jpeg,image/png,image/webp";

/** /products/new: the owner adds a product with its picture (decision 065). */
export default ownerOnlyPage("products", ProductCreate, "create");

/** The form's fields, sent as typed (multipart) for create-product to read and check. */
type ProductFields = {
  name: string;
  description: string;
  price: string;
  category: "bars" | "bites";
  flavor: string;
  ingredients: Ingredient[];
  allergens: Allergen[];
  imageAlt: string;
  stock: string;
  lowStockThreshold: string;
};

function ProductCreate() {
  const navigate = useNavigate();
  const { form, refused } = useAdminForm<ProductFields>({
    name: "",
    description: "",
    price: "",
    category: "bars",
    flavor: "",
    ingredients: ["greek-yogurt", "peanut-butter", "honey", "lemon-juice", "sea-salt"],
    allergens: [],
    imageAlt: "",
    stock: "",
    lowStockThreshold: "5",
  });
  const { ingredients, allergens: declared } = form.getValues();
  const [picture, setPicture] = useState<File | null>(null);
  const [pictureError, setPictureError] = useState<string | null>(null);
  const preview = usePreview(picture);
  const pictureId = useId();

  const { mutate, mutation } = useCreate<ProductJson & { message: string }, HttpError>({
    resource: "products",
    dataProviderName: "catalog",
    // Field errors show beside their fields; the toast says the rest.
    ...answerToasts("product-create", { success: "Product added", error: "Could not add the product" }, fieldErrorsNote),
  });
  // The ingredients' allergens are always declared: ticked and fixed, the owner may add others.
  const brought = allergensOf(ingredients);
  const shownPictureError = pictureError ?? form.errors.picture;

  function choosePicture(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0] ?? null;
    setPicture(file);
    setPictureError(file && file.size > MAX_PICTURE_BYTES ? "The picture is larger than 5 MB: pictures can be at most 5 MB." : null);
  }

  function submit(values: ProductFields) {
    if (picture && picture.size > MAX_PICTURE_BYTES) return;
    // Multipart, for the picture: every field as the text typed, the lists one entry each, for the server to read and check.
    const body = new FormData();
    for (const [name, value] of Object.entries(values)) {
      for (const entry of Array.isArray(value) ? value : [value]) body.append(name, entry);
    }
    if (picture) body.set("picture", picture);
    mutate({ values: { form: body } }, { onSuccess: ({ data }) => void navigate(`/products/${encodeURIComponent(data.id)}`), onError: refused });
  }

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/products">
        ← All products
      </Anchor>
      <div>
        <Title order={2}>Add a product</Title>
        <Text c="dimmed" size="sm">
          It goes on the shop, last of its range, as soon as it is added. Its ingredients make the allergy line its card and page show.
        </Text>
      </div>
      <Card withBorder radius="lg" component="form" onSubmit={form.onSubmit(submit)} noValidate aria-label="Add a product">
        <Grid gutter="xl">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack>
              <TextInput label="Name" {...form.getInputProps("name")} required maxLength={80} />
              <Textarea label="Description" {...form.getInputProps("description")} autosize minRows={3} required />
              <Group align="flex-start" gap="md">
                <TextInput label="Price (dollars)" {...form.getInputProps("price")} inputMode="decimal" leftSection="$" w={180} required />
                <TextInput
                  label="Flavour (the card's label)"
                  placeholder="Mango PB"
                  {...form.getInputProps("flavor")}
                  required
                  maxLength={40}
                  style={{ flex: "1 1 200px" }}
                />
              </Group>
              <Radio.Group label="Range" {...form.getInputProps("category")} required>
                <Group mt={6} gap="lg">
                  <Radio value="bars" label="100g bars" />
                  <Radio value="bites" label="Mini bites (carton of 10)" />
                </Group>
              </Radio.Group>
              <Checkbox.Group
                label="Ingredients"
                description="From the shop's seven organic ingredients"
                {...form.getInputProps("ingredients")}
                onChange={(value) =>
                  form.setFieldValue(
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
                {...form.getInputProps("allergens")}
                value={allergens.filter((allergen) => brought.includes(allergen) || declared.includes(allergen))}
                onChange={(value) =>
                  form.setFieldValue(
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
              <StockFields form={form} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack>
              <Input.Wrapper
                label="Picture"
                description="JPEG, PNG or WebP, at most 5 MB, at least 800 × 600 pixels; shown cropped to 4:3"
                error={shownPictureError}
                required
                id={pictureId}
              >
                <input
                  id={pictureId}
                  className="file-input"
                  type="file"
                  accept={PICTURE_TYPES}
                  onChange={choosePicture}
                  aria-invalid={shownPictureError ? true : undefined}
                  aria-describedby={`${pictureId}-description${shownPictureError ? ` ${pictureId}-error` : ""}`}
                  required
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
              <Textarea
                label="Picture description"
                description="What the picture shows, read aloud to visitors who cannot see it"
                {...form.getInputProps("imageAlt")}
                autosize
                minRows={2}
                required
                maxLength={200}
              />
            </Stack>
          </Grid.Col>
        </Grid>
        <Group mt="xl">
          <Button type="submit" loading={mutation.isPending} disabled={Boolean(pictureError)}>
            Add product
          </Button>
          <Button component={Link} to="/products" variant="default">
            Cancel
          </Button>
        </Group>
      </Card>
    </Stack>
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
