import { Alert, Anchor, Button, Card, Checkbox, Grid, Group, NativeSelect, Radio, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useCreate, useList, useOne, useUpdate, type HttpError } from "@refinedev/core";
import { keepPreviousData } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { MAX_LINE_QUANTITY } from "@shop/cart";
import {
  DISCOUNT_CODE_MAX_LENGTH,
  DISCOUNT_KIND_NAMES,
  DISCOUNT_KINDS,
  type DiscountKind,
  type DiscountKindTerms,
  type DiscountOffer,
  type DiscountScope,
} from "@shop/discount-code";
import { dollarsToCents, formatCents } from "@shop/money";
import type { DiscountCodeJson, DiscountCodeTerms, ProductJson } from "@shop/owner-records";
import { Loading, QueryError } from "../../components/loading";
import { fieldErrorsNote } from "../../api";
import { OwnerOnly } from "../../components/owner-only";
import { answerToasts } from "../../toasts";
import { useFunction } from "../../functions";
import { useAdminForm } from "../../forms";

/** Creates a code (/discount-codes/new) or edits one (/discount-codes/:id, the code). */
export default function DiscountCodeEditPage() {
  const { id: code } = useParams();
  return (
    <OwnerOnly resource="discount-codes" action={code ? "edit" : "create"}>
      {code ? <EditCode code={code} /> : <CodeForm />}
    </OwnerOnly>
  );
}

function EditCode({ code }: { code: string }) {
  const { result, query } = useOne<DiscountCodeJson>({
    resource: "discount-codes",
    id: code,
    dataProviderName: "catalog",
    errorNotification: false,
  });
  if (query.isLoading) return <Loading label="Loading the code" />;
  if (query.isError && query.error.statusCode !== 404) {
    return <QueryError title="Failed to fetch the code" message={query.error.message} onRetry={() => void query.refetch()} />;
  }
  if (!result) {
    return (
      <Alert color="red" title="Code not found" role="alert">
        No code named {code}.
      </Alert>
    );
  }
  return <CodeForm existing={result} />;
}

/** An ISO instant as the value of a datetime-local field, in the operator's own time zone. */
function toLocalInput(iso: string | null) {
  if (!iso) return "";
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const kindOptions = DISCOUNT_KINDS.map((value) => ({ value, label: DISCOUNT_KIND_NAMES[value] }));

/** A figure of a kind's own, as its input shows it: a whole percent, or dollars. */
type FigureInput = { label: string; description: string; unit: "percent" | "dollars" };

/**
 * Each kind's own figures (DiscountKindTerms) as the form asks for them, and
 * a word for a kind that has none: a kind, or a figure of one, declared
 * there without its input here fails tsc.
 */
const KIND_FIGURES: { [K in DiscountKind]: { [F in keyof DiscountKindTerms[K]]: FigureInput } } = {
  percent: { percentOff: { label: "Percent off", description: "1 to 100.", unit: "percent" } },
  amount: { amountOff: { label: "Amount off ($)", description: "Taken from the products it applies to, never more than they come to.", unit: "dollars" } },
  "free-shipping": {},
};
const KIND_NOTES: Partial<Record<DiscountKind, string>> = { "free-shipping": "The order ships free, whatever it comes to." };

/** The names of every kind's figures: "percentOff" | "amountOff". */
type FigureName = { [K in DiscountKind]: keyof DiscountKindTerms[K] }[DiscountKind];
const figuresOf = (kind: DiscountKind): [FigureName, FigureInput][] => Object.entries(KIND_FIGURES[kind]) as [FigureName, FigureInput][];
/** What a new code's figures start at: 10%, and no amount. */
const NEW_FIGURES: Record<FigureName, string> = { percentOff: "10", amountOff: "" };

const scopeOptions: { value: DiscountScope; label: string }[] = [
  { value: "all", label: "All products" },
  { value: "bars", label: "Bars only" },
  { value: "bites", label: "Bites only" },
];

/** Dollars the server sent, as a field's text: 5 → "5.00" (how it is written, no sum). */
const dollarsText = (dollars: number | null | undefined) => (dollars === null || dollars === undefined ? "" : dollars.toFixed(2));

/**
 * Typed text as the number to send: empty is left out (the server says the
 * field is required); text that is not a number goes as it is, for the
 * server to refuse with its message beside the field.
 */
function numberOf(text: string): number | string | undefined {
  const trimmed = text.trim().replace(/^\$/, "");
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isNaN(value) ? text : value;
}

/** A datetime-local field's value as the ISO instant to send; what is not a date goes as typed, for the server to refuse. */
function instantOf(local: string) {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

/** An existing code's own figures as its inputs' text: 15 → "15", dollars 5 → "5.00". */
function figureTexts(existing: DiscountCodeJson): Partial<Record<FigureName, string>> {
  const figures: Record<string, unknown> = existing;
  return Object.fromEntries(
    figuresOf(existing.kind).map(([name, input]) => {
      const value = figures[name];
      return [name, typeof value !== "number" ? "" : input.unit === "dollars" ? dollarsText(value) : String(value)];
    }),
  );
}

/** The form's fields: the figures as typed, sent as numbers (numberOf) for the server to check. */
type CodeFields = Record<FigureName, string> & {
  code: string;
  kind: DiscountKind;
  minimumSubtotal: string;
  appliesTo: DiscountScope;
  description: string;
  active: boolean;
  firstOrderOnly: boolean;
  usageLimit: string;
  startsAt: string;
  expiresAt: string;
};

function CodeForm({ existing }: { existing?: DiscountCodeJson }) {
  const navigate = useNavigate();
  const { form, refused } = useAdminForm<CodeFields>(() => ({
    code: existing?.code ?? "",
    kind: existing?.kind ?? "percent",
    ...NEW_FIGURES,
    ...(existing && figureTexts(existing)),
    minimumSubtotal: dollarsText(existing?.minimumSubtotal),
    appliesTo: existing?.appliesTo ?? "all",
    description: existing?.description ?? "",
    active: existing?.active ?? true,
    firstOrderOnly: existing?.firstOrderOnly ?? false,
    usageLimit: existing?.usageLimit ? String(existing.usageLimit) : "",
    startsAt: toLocalInput(existing?.startsAt ?? null),
    expiresAt: toLocalInput(existing?.expiresAt ?? null),
  }));
  const fields = form.getValues();

  const notify = (verb: string) => answerToasts("code-save", { success: `Code ${verb}`, error: "Could not save the code" }, fieldErrorsNote);
  const { mutate: create, mutation: creation } = useCreate<DiscountCodeJson & { message: string }, HttpError>({
    resource: "discount-codes",
    dataProviderName: "catalog",
    ...notify("created"),
  });
  const { mutate: update, mutation: updating } = useUpdate<DiscountCodeJson & { message: string }, HttpError>({
    resource: "discount-codes",
    id: existing?.code ?? "",
    dataProviderName: "catalog",
    ...notify("saved"),
  });
  const mutation = existing ? updating : creation;

  function submit(values: CodeFields) {
    const { kind, minimumSubtotal, usageLimit, startsAt, expiresAt } = values;
    // Each kind sends its own figures only: a hidden field's old text is not refused under a kind that does not use it.
    // A figure typed as text that is not a number goes as typed (numberOf), so save-discount-code's 400 names its
    // field: these are the terms' type only once the server has checked them, hence the cast.
    const terms = {
      code: values.code,
      kind,
      ...Object.fromEntries(figuresOf(kind).map(([name]) => [name, numberOf(values[name])])),
      minimumSubtotal: numberOf(minimumSubtotal) ?? null,
      appliesTo: values.appliesTo,
      startsAt: instantOf(startsAt),
      description: values.description,
      active: values.active,
      firstOrderOnly: values.firstOrderOnly,
      usageLimit: numberOf(usageLimit) ?? null,
      expiresAt: instantOf(expiresAt),
    } as unknown as DiscountCodeTerms;
    const callbacks = { onSuccess: () => void navigate("/discount-codes"), onError: refused };
    if (existing) update({ values: terms }, callbacks);
    else create({ values: terms }, callbacks);
  }

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/discount-codes">
        ← All discount codes
      </Anchor>
      <Title order={2}>{existing ? `Edit ${existing.code}` : "New discount code"}</Title>
      {existing ? (
        <Text c="dimmed" size="sm">
          Used by {existing.uses} paid {existing.uses === 1 ? "order" : "orders"} (refunded ones included); {existing.reserved} reserved by orders waiting for
          payment.
        </Text>
      ) : null}
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card
            withBorder
            radius="lg"
            component="form"
            onSubmit={form.onSubmit(submit)}
            noValidate
            aria-label={existing ? `Edit ${existing.code}` : "New discount code"}
          >
            <Stack>
              <TextInput
                label="Code"
                description="Letters, digits and dashes; customers may type it in any case."
                {...form.getInputProps("code")}
                disabled={Boolean(existing)}
                required
                maxLength={DISCOUNT_CODE_MAX_LENGTH}
                // The code itself in monospace (as in the list), not its label and hint.
                styles={{
                  input: { fontFamily: "var(--mantine-font-family-monospace)" },
                }}
              />
              <Radio.Group label="Kind" {...form.getInputProps("kind")} required>
                <Group gap="lg" mt={6}>
                  {kindOptions.map((option) => (
                    <Radio key={option.value} value={option.value} label={option.label} />
                  ))}
                </Group>
              </Radio.Group>
              {figuresOf(fields.kind).map(([name, input]) => (
                <TextInput
                  key={name}
                  label={input.label}
                  description={input.description}
                  {...form.getInputProps(name)}
                  {...(input.unit === "percent" ? { inputMode: "numeric", rightSection: "%", w: 160 } : { inputMode: "decimal", leftSection: "$", maw: 300 })}
                  required
                />
              ))}
              {KIND_NOTES[fields.kind] ? (
                <Text size="sm" c="dimmed">
                  {KIND_NOTES[fields.kind]}
                </Text>
              ) : null}
              <TextInput
                label="Minimum subtotal ($)"
                description="What the products it applies to must come to. Empty: no minimum."
                {...form.getInputProps("minimumSubtotal")}
                inputMode="decimal"
                leftSection="$"
                maw={300}
              />
              <NativeSelect label="Applies to" data={scopeOptions} {...form.getInputProps("appliesTo")} maw={300} />
              <TextInput label="Description" description="Shown to the customer when the code applies." {...form.getInputProps("description")} required />
              <TextInput
                label="Usage limit"
                description="How many orders may use it. Empty: no limit."
                {...form.getInputProps("usageLimit")}
                inputMode="numeric"
                maw={300}
              />
              <TextInput
                label="Starts"
                description="Empty: at once. In your own time zone."
                type="datetime-local"
                {...form.getInputProps("startsAt")}
                maw={260}
              />
              <TextInput
                label="Expires"
                description="Empty: never. In your own time zone."
                type="datetime-local"
                {...form.getInputProps("expiresAt")}
                maw={260}
              />
              <Checkbox label="Active" {...form.getInputProps("active", { type: "checkbox" })} />
              <Checkbox label="First order only (an email with no paid order yet)" {...form.getInputProps("firstOrderOnly", { type: "checkbox" })} />
              <Group>
                <Button type="submit" loading={mutation.isPending}>
                  {existing ? "Save code" : "Create code"}
                </Button>
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <CodePreview terms={fields} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

type PreviewTerms = Pick<CodeFields, "code" | "kind" | FigureName | "minimumSubtotal" | "appliesTo">;

/** The server's dollars as the shop writes money. */
const money = (dollars: number) => formatCents(dollarsToCents(dollars));

/** A figure the preview can send, or null while the typed text is not one. */
function previewNumber(text: string, whenEmpty: number | null): number | null | undefined {
  const trimmed = text.trim().replace(/^\$/, "");
  if (trimmed === "") return whenEmpty;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * What the code's terms, as typed and not yet saved, give on a small sample
 * cart the owner picks: the server prices it (preview-discount-code) a moment
 * after the last change, and this card shows its figures as they come.
 */
function CodePreview({ terms }: { terms: PreviewTerms }) {
  const { result: products, query: productsQuery } = useList<ProductJson>({
    resource: "products",
    dataProviderName: "catalog",
    pagination: { mode: "off" },
    errorNotification: false,
  });
  const [chosen, setChosen] = useState<string | null>(null);
  const [quantity, setQuantity] = useState("4");
  const productId = chosen ?? products.data[0]?.id ?? "";

  const figures = figuresOf(terms.kind).map(([name]) => [name, previewNumber(terms[name], null)] as const);
  const minimumSubtotal = previewNumber(terms.minimumSubtotal, null);
  const count = Number(quantity);
  const quantityOk = Number.isInteger(count) && count >= 1 && count <= MAX_LINE_QUANTITY;
  // Only terms the server can price: a half-typed figure waits until it is a number (the server judges its range).
  const termsOk = figures.every(([, value]) => typeof value === "number") && minimumSubtotal !== undefined;
  // The kind's figures are numbers by now; the server checks them as the save does (preview-discount-code's 400
  // shows beside the preview), hence the cast to what the function takes.
  const offer = { kind: terms.kind, ...Object.fromEntries(figures) } as DiscountOffer;
  const body =
    termsOk && quantityOk && productId
      ? {
          code: terms.code.trim() || "PREVIEW",
          ...offer,
          minimumSubtotal,
          appliesTo: terms.appliesTo,
          items: [{ productId, quantity: count }],
          zone: null,
        }
      : null;
  const [debounced] = useDebouncedValue(body ? JSON.stringify(body) : null, 300);
  const { result, query } = useFunction("preview-discount-code", {
    body: debounced ? (JSON.parse(debounced) as NonNullable<typeof body>) : undefined,
    errorNotification: false,
    queryOptions: {
      enabled: debounced !== null,
      placeholderData: keepPreviousData,
    },
  });
  const answer = debounced !== null ? result.data : undefined;

  return (
    <Card withBorder radius="lg" component="section" aria-labelledby="code-preview-title">
      <Title order={3} size="h4" id="code-preview-title">
        Preview on a sample cart
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        What these terms give on a cart you choose, priced by the shop with its shop-wide shipping. Nothing is saved.
      </Text>
      {productsQuery.isError ? (
        <QueryError title="Failed to fetch the products" message={productsQuery.error.message} onRetry={() => void productsQuery.refetch()} />
      ) : null}
      <Group align="start" wrap="wrap" gap="sm">
        <NativeSelect
          label="Sample product"
          data={products.data.map((product) => ({
            value: product.id,
            label: product.name,
          }))}
          value={productId}
          onChange={(event) => setChosen(event.currentTarget.value)}
          style={{ flex: "1 1 200px" }}
        />
        <TextInput
          label="Quantity"
          value={quantity}
          onChange={(event) => setQuantity(event.currentTarget.value)}
          error={quantityOk ? undefined : `1 to ${MAX_LINE_QUANTITY}`}
          inputMode="numeric"
          w={100}
        />
      </Group>
      {/* Terms the server refuses (a percent over 100) are the form's to say, beside their field, when it is saved. */}
      {!body || (query.isError && query.error.statusCode === 400) ? (
        <Text size="sm" c="dimmed" mt="md">
          The preview shows once the terms and the sample cart are complete.
        </Text>
      ) : null}
      {query.isError && query.error.statusCode !== 400 && body ? (
        <Alert color="red" mt="md" role="alert">
          {query.error.message}
        </Alert>
      ) : null}
      {answer && body && !query.isError ? (
        <Stack gap="xs" mt="md" aria-busy={query.isFetching}>
          <Table withRowBorders={false} verticalSpacing={4} aria-label="Sample cart's figures">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Subtotal
                </Table.Th>
                <Table.Td ta="right" data-testid="preview-subtotal">
                  {money(answer.subtotal)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Discount
                </Table.Th>
                <Table.Td ta="right" data-testid="preview-discount">
                  {answer.discount > 0 ? `−${money(answer.discount)}` : money(answer.discount)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Shipping
                </Table.Th>
                <Table.Td ta="right" data-testid="preview-shipping">
                  {answer.shippingWaived ? "Free (the code)" : money(answer.shipping)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr style={{ borderTop: "1px solid var(--mantine-color-gray-3)" }}>
                <Table.Th scope="row">Total</Table.Th>
                <Table.Td ta="right" fw={700} data-testid="preview-total">
                  {money(answer.total)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <div aria-live="polite">
            {answer.problem ? (
              <Alert color="yellow" data-testid="preview-problem" title="The code gives nothing on this cart">
                {answer.problem}
              </Alert>
            ) : null}
          </div>
        </Stack>
      ) : null}
    </Card>
  );
}
