import { Anchor, Button, Card, Grid, Group, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useCreate, type HttpError } from "@refinedev/core";
import type { ProductJson } from "@shop/owner-records";
import { Link, useNavigate } from "react-router";
import { fieldErrorsNote } from "../../api";
import { ownerOnlyPage } from "../../components/owner-only";
import { answerToasts } from "../../toasts";
import { StockFields } from "./stock-fields";
import {
  NutritionFields,
  PictureDescription,
  PictureInput,
  RecipeFields,
  nutritionBody,
  nutritionValues,
  usePicture,
  type RecipeValues,
} from "./recipe-fields";
import { useAdminForm } from "../../forms";

/** /products/new: the owner adds a product with its picture and its own facts (decisions 065, 096). */
export default ownerOnlyPage("products", ProductCreate, "create");

/** The form's fields, sent as typed (multipart) for create-product to read and check. */
type ProductFields = RecipeValues & {
  name: string;
  description: string;
  price: string;
  flavor: string;
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
    // None ticked: the owner states what is in it, nothing is assumed.
    ingredients: [],
    allergens: [],
    nutrition: nutritionValues(null),
    imageAlt: "",
    stock: "",
    lowStockThreshold: "5",
  });
  const picture = usePicture();

  const { mutate, mutation } = useCreate<ProductJson & { message: string }, HttpError>({
    resource: "products",
    dataProviderName: "catalog",
    // Field errors show beside their fields; the toast says the rest.
    ...answerToasts("product-create", { success: "Product added", error: "Could not add the product" }, fieldErrorsNote),
  });

  function submit({ nutrition, ...values }: ProductFields) {
    if (picture.error) return;
    // Multipart, for the picture: every field as the text typed, the lists one entry each, the label as one JSON text, for the server to read and check.
    const body = new FormData();
    for (const [name, value] of Object.entries(values)) {
      for (const entry of Array.isArray(value) ? value : [value]) body.append(name, entry);
    }
    const label = nutritionBody(nutrition);
    if (label) body.set("nutrition", JSON.stringify(label));
    if (picture.picture) body.set("picture", picture.picture);
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
          It goes on the shop, last of its range, as soon as it is added. Its ingredients make the allergy line its card and page show; its Nutrition Facts make
          their claims.
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
              <RecipeFields form={form} />
              <StockFields form={form} />
              <NutritionFields form={form} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack>
              <PictureInput picture={picture.picture} error={picture.error ?? form.errors.picture} onChange={picture.choose} required />
              <PictureDescription form={form} />
            </Stack>
          </Grid.Col>
        </Grid>
        <Group mt="xl">
          <Button type="submit" loading={mutation.isPending} disabled={Boolean(picture.error)}>
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
