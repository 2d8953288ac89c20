import { Alert, Anchor, Badge, Button, Card, Grid, Group, Image, Modal, Stack, Text, TextInput, Textarea, Timeline, Title } from "@mantine/core";
import { useOne, useUpdate, type HttpError } from "@refinedev/core";
import { formatCents } from "@shop/money";
import { useState, type FormEvent } from "react";
import { Link, useParams } from "react-router";
import type { AuditRecord, ProductJson } from "@shop/owner-records";
import { Loading, QueryError } from "../../components/loading";
import { fieldErrorsNote } from "../../api";
import { ownerOnlyPage } from "../../components/owner-only";
import { orderDate } from "../../components/status";
import { answerToasts } from "../../toasts";
import { StockFields, stockBody, type StockValues } from "./stock-fields";
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
import { allergensOf } from "@shop/product-facts";
import { fieldErrorsOf, useAdminForm } from "../../forms";

/** The product's form as typed. */
type ProductValues = RecipeValues & StockValues & { name: string; description: string; price: string; flavor: string; imageAlt: string };

/** One product: edit every field, its picture and its facts, archive or restore it; beside, who changed what and when. */
export default ownerOnlyPage("products", ProductEdit, "edit");

function ProductEdit() {
  const { id = "" } = useParams();
  const { result: product, query } = useOne<ProductJson>({ resource: "products", id, dataProviderName: "catalog", errorNotification: false });

  if (query.isLoading) return <Loading label="Loading the product" />;
  const failed = query.isError && query.error.statusCode !== 404;
  if (failed || !product) {
    return (
      <Stack>
        {failed ? (
          <QueryError title="Failed to fetch the product" message={query.error?.message} onRetry={() => void query.refetch()} />
        ) : (
          <Alert color="red" title="Product not found" role="alert">
            No product with that id.
          </Alert>
        )}
        <Anchor component={Link} to="/products">
          Back to products
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/products">
        ← All products
      </Anchor>
      <Group gap="md" wrap="nowrap">
        <Image src={product.image} alt="" w={96} h={72} radius="md" fit="cover" />
        <div>
          <Title order={2}>{product.name}</Title>
          {product.archivedAt ? (
            <Badge color="gray" variant="light">
              Archived
            </Badge>
          ) : (
            <Text c={product.inStock && product.stock !== 0 ? "green.8" : "red.8"} fw={700} size="sm">
              {!product.inStock || product.stock === 0 ? "Sold out" : product.stock === null ? "In stock" : `${product.stock} left`}
            </Text>
          )}
        </div>
      </Group>
      {product.archivedAt ? (
        <Alert color="gray" title="Not on the shop" role="status">
          Archived on {orderDate(product.archivedAt)}: the shop no longer lists or sells it, and its orders keep it. Restore it to sell it again.
        </Alert>
      ) : null}
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            {/* Keyed by the saved record, so the form starts from what the server now holds. */}
            <ProductForm key={product.updatedAt} product={product} />
            <PictureCard key={`picture-${product.image}`} product={product} />
            <ArchiveCard product={product} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <ProductHistory history={product.history} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** Every field of a product, with the same checks as Add product (decision 096); its picture has a card of its own. */
function ProductForm({ product }: { product: ProductJson }) {
  const ingredients = product.facts?.ingredients.map((entry) => entry.ingredient) ?? [];
  const brought = allergensOf(ingredients);
  const { form, refused } = useAdminForm<ProductValues>({
    name: product.name,
    description: product.description,
    price: product.price.toFixed(2),
    flavor: product.flavor,
    imageAlt: product.imageAlt,
    category: product.category === "bites" ? "bites" : "bars",
    ingredients,
    allergens: (product.facts?.allergens ?? []).filter((allergen) => !brought.includes(allergen)),
    nutrition: nutritionValues(product.nutrition),
    stock: product.stock === null ? "" : String(product.stock),
    lowStockThreshold: String(product.lowStockThreshold),
  });
  const { mutate, mutation } = useUpdate<ProductJson & { message: string }, HttpError>({
    resource: "products",
    id: product.id,
    dataProviderName: "catalog",
    // Field errors show beside their fields; the toast says the rest.
    ...answerToasts("product-save", { success: "Product saved", error: "Could not save the product" }, fieldErrorsNote),
  });

  function submit(values: ProductValues) {
    const price = values.price.trim().replace(/^\$/, "");
    // The server checks the price (a positive amount with at most 2 decimals); text that is not a number goes as it is, to be refused.
    const dollars = price === "" || Number.isNaN(Number(price)) ? values.price : Number(price);
    const { name, description, flavor, imageAlt, category } = values;
    // A label stays as it is unless its fields changed: the founding six keep what the requirements state until the owner gives them one.
    const label = nutritionBody(values.nutrition);
    const nutrition = JSON.stringify(label) === JSON.stringify(product.nutrition) ? {} : { nutrition: label };
    const recipe = product.facts || values.ingredients.length > 0 ? { ingredients: values.ingredients, allergens: values.allergens } : {};
    mutate({ values: { name, description, price: dollars, flavor, imageAlt, category, ...recipe, ...nutrition, ...stockBody(values) } }, { onError: refused });
  }

  return (
    <Card withBorder radius="lg" component="form" onSubmit={form.onSubmit(submit)} noValidate aria-label={`Edit ${product.name}`}>
      <Stack>
        <TextInput label="Name" {...form.getInputProps("name")} required />
        <Textarea label="Description" {...form.getInputProps("description")} autosize minRows={3} required />
        <Group align="flex-start" gap="md">
          <TextInput label="Price (dollars)" {...form.getInputProps("price")} inputMode="decimal" leftSection="$" w={180} required />
          <TextInput label="Flavour (the card's label)" {...form.getInputProps("flavor")} required style={{ flex: "1 1 200px" }} />
        </Group>
        <RecipeFields form={form} />
        <StockFields form={form} />
        <NutritionFields form={form} stated={product.nutrition ? undefined : product.claims} />
        <PictureDescription form={form} />
        <Group>
          <Button type="submit" loading={mutation.isPending}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** A new picture, checked as Add product checks one (replace-product-picture). */
function PictureCard({ product }: { product: ProductJson }) {
  const picture = usePicture();
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useUpdate<ProductJson & { message: string }, HttpError>({
    resource: "products",
    id: product.id,
    dataProviderName: "catalog",
    ...answerToasts(`product-picture-${product.id}`, { success: "Picture replaced", error: "Could not replace the picture" }, fieldErrorsNote),
  });
  function replace(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!picture.picture) return setError("Choose a picture (JPEG, PNG or WebP, at most 5 MB)");
    if (picture.error) return;
    const form = new FormData();
    form.set("productId", product.id);
    form.set("picture", picture.picture);
    mutate({ values: { picture: form } }, { onError: (refusal) => setError(fieldErrorsOf(refusal).picture ?? refusal.message) });
  }
  return (
    <Card withBorder radius="lg" component="form" onSubmit={replace} noValidate aria-label={`Picture of ${product.name}`}>
      <Stack>
        <Title order={3} size="h4">
          Picture
        </Title>
        <Group align="flex-start" gap="md">
          <Image src={product.image} alt={`Now: ${product.imageAlt}`} w={160} h={120} radius="md" fit="cover" />
          <Text size="sm" c="dimmed" style={{ flex: "1 1 200px" }}>
            The shop shows this picture now. A new one replaces it everywhere within a second; say what it shows in &ldquo;Picture description&rdquo; above.
          </Text>
        </Group>
        <PictureInput
          label="New picture"
          picture={picture.picture}
          error={picture.error ?? error}
          onChange={(event) => {
            setError(null);
            picture.choose(event);
          }}
        />
        <Group>
          <Button type="submit" variant="light" loading={mutation.isPending} disabled={Boolean(picture.error)}>
            Replace picture
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Archive (off the shop, kept on its orders) or Restore, each after a confirmation; the server's answer comes back as a toast. */
function ArchiveCard({ product }: { product: ProductJson }) {
  const [confirming, setConfirming] = useState(false);
  const archived = product.archivedAt !== null;
  const { mutate, mutation } = useUpdate<ProductJson & { message: string }, HttpError>({
    resource: "products",
    id: product.id,
    dataProviderName: "catalog",
    ...answerToasts(`product-archive-${product.id}`, { success: archived ? "Product restored" : "Product archived", error: false }),
  });
  const action = archived ? "Restore" : "Archive";
  return (
    <Card withBorder radius="lg">
      <Stack gap="xs" align="flex-start">
        <Title order={3} size="h4">
          {archived ? "Back on the shop" : "Take it off the shop"}
        </Title>
        <Text size="sm" c="dimmed">
          {archived
            ? "Restoring puts it back on the shop with its price, picture and stock as they are."
            : "Archiving hides it from the shop, its page and carts; orders that hold it keep it. You can restore it later."}
        </Text>
        <Button variant="light" color={archived ? "green" : "red"} onClick={() => setConfirming(true)}>
          {action} product
        </Button>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`${action} ${product.name}?`} centered>
        <Stack>
          <Text size="sm">
            {archived
              ? `${product.name} will be on the shop again, for everyone, at once.`
              : `${product.name} will leave the shop at once. Customers with it in their cart will be asked to remove it; its orders are not changed.`}
          </Text>
          {mutation.isError ? (
            <Alert color="red" title={`Could not ${action.toLowerCase()} the product`} role="alert">
              {mutation.error.message}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              color={archived ? "green" : "red"}
              loading={mutation.isPending}
              onClick={() => mutate({ values: { archived: !archived } }, { onSuccess: () => setConfirming(false) })}
            >
              {action}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

/** What a history entry that is not an edit says. */
const eventTitles: Record<string, string> = {
  "product.create": "Added to the shop",
  "product.archive": "Archived: taken off the shop",
  "product.restore": "Restored to the shop",
  "product.picture": "Picture replaced",
};

const fieldLabels: Record<string, string> = {
  name: "Name",
  description: "Description",
  priceCents: "Price",
  inStock: "Stock",
  stock: "Stock count",
  lowStockThreshold: "Low-stock threshold",
  category: "Range",
  flavor: "Flavour",
  imageAlt: "Picture description",
  ingredients: "Ingredients",
  allergens: "Allergens declared",
  nutrition: "Nutrition Facts",
};

function show(field: string, value: unknown) {
  if (field === "priceCents" && typeof value === "number") return formatCents(value);
  if (field === "inStock") return value ? "in stock" : "sold out";
  if (field === "stock") return value === null ? "no limit" : String(value);
  if (field === "nutrition") return value === null || value === undefined ? "none stated" : "stated";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(", ");
  return String(value);
}

function ProductHistory({ history }: { history: AuditRecord[] }) {
  return (
    <Card withBorder radius="lg">
      <Title order={3} size="h4" mb="md">
        Change history
      </Title>
      {history.length === 0 ? (
        <Text c="dimmed">No changes yet: the product is as the shop was set up.</Text>
      ) : (
        <Timeline bulletSize={14} lineWidth={2} active={history.length}>
          {history.map((entry) => {
            const after = (entry.after ?? {}) as Record<string, unknown>;
            const before = (entry.before ?? {}) as Record<string, unknown>;
            return (
              <Timeline.Item key={`${entry.at}-${JSON.stringify(after)}`} title={`${entry.actorEmail}, ${orderDate(entry.at)}`}>
                {eventTitles[entry.action] ? (
                  <Text size="sm" c="dimmed">
                    {eventTitles[entry.action]}
                    {entry.action === "product.create" && typeof after.priceCents === "number" ? `, at ${formatCents(after.priceCents)}` : ""}
                  </Text>
                ) : (
                  Object.keys(after).map((field) => (
                    <Text key={field} size="sm" c="dimmed" lineClamp={2}>
                      {fieldLabels[field] ?? field}: {show(field, before[field])} → {show(field, after[field])}
                    </Text>
                  ))
                )}
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Card>
  );
}
