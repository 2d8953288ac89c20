import { Alert, Anchor, Button, Card, Checkbox, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useCreate, useOne, useUpdate, type HttpError } from "@refinedev/core";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { DISCOUNT_CODE_MAX_LENGTH } from "@shop/discount-code";
import type { DiscountCodeJson, DiscountCodeTerms } from "@shop/owner-records";
import { Loading, QueryError } from "../../components/loading";
import { fieldErrorsNote } from "../../api";
import { OwnerOnly } from "../../components/owner-only";
import { answerToasts } from "../../toasts";

/** Creates a code (/discount-codes/new) or edits one (/discount-codes/:code). */
export default function DiscountCodeEditPage() {
  const { code } = useParams();
  return (
    <OwnerOnly resource="discount-codes" action={code ? "edit" : "create"}>
      {code ? <EditCode code={code} /> : <CodeForm />}
    </OwnerOnly>
  );
}

function EditCode({ code }: { code: string }) {
  const { result, query } = useOne<DiscountCodeJson>({ resource: "discount-codes", id: code, dataProviderName: "catalog", errorNotification: false });
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

function CodeForm({ existing }: { existing?: DiscountCodeJson }) {
  const navigate = useNavigate();
  const [code, setCode] = useState(existing?.code ?? "");
  const [percentOff, setPercentOff] = useState(existing ? String(existing.percentOff) : "10");
  const [description, setDescription] = useState(existing?.description ?? "");
  const [active, setActive] = useState(existing?.active ?? true);
  const [firstOrderOnly, setFirstOrderOnly] = useState(existing?.firstOrderOnly ?? false);
  const [usageLimit, setUsageLimit] = useState(existing?.usageLimit ? String(existing.usageLimit) : "");
  const [expiresAt, setExpiresAt] = useState(toLocalInput(existing?.expiresAt ?? null));

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
  const errors = (mutation.error?.errors ?? {}) as Record<string, string | undefined>;

  /** A number when the text is one; otherwise the text itself, for the server to refuse with its message. */
  const numberOrText = (text: string) => (text.trim() !== "" && !Number.isNaN(Number(text)) ? Number(text) : text);

  function submit(event: FormEvent) {
    event.preventDefault();
    const expiry = expiresAt ? new Date(expiresAt) : null;
    const terms = {
      code,
      percentOff: numberOrText(percentOff),
      description,
      active,
      firstOrderOnly,
      usageLimit: usageLimit.trim() === "" ? null : numberOrText(usageLimit),
      expiresAt: expiry && !Number.isNaN(expiry.getTime()) ? expiry.toISOString() : expiry ? expiresAt : null,
    } as unknown as DiscountCodeTerms;
    const onSuccess = () => navigate("/discount-codes");
    if (existing) update({ values: terms }, { onSuccess });
    else create({ values: terms }, { onSuccess });
  }

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/discount-codes">
        ← All discount codes
      </Anchor>
      <Title order={2}>{existing ? `Edit ${existing.code}` : "New discount code"}</Title>
      {existing ? (
        <Text c="dimmed" size="sm">
          Used by {existing.uses} paid {existing.uses === 1 ? "order" : "orders"} (refunded ones included); {existing.reserved} reserved by
          orders waiting for payment.
        </Text>
      ) : null}
      <Card withBorder radius="lg" component="form" onSubmit={submit} noValidate maw={560} aria-label={existing ? `Edit ${existing.code}` : "New discount code"}>
        <Stack>
          <TextInput
            label="Code"
            description="Letters, digits and dashes; customers may type it in any case."
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={errors.code}
            disabled={Boolean(existing)}
            required
            maxLength={DISCOUNT_CODE_MAX_LENGTH}
            // The code itself in monospace (as in the list), not its label and hint.
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          />
          <TextInput
            label="Percent off"
            value={percentOff}
            onChange={(event) => setPercentOff(event.currentTarget.value)}
            error={errors.percentOff}
            inputMode="numeric"
            rightSection="%"
            w={160}
            required
          />
          <TextInput label="Description" description="Shown to the customer when the code applies." value={description} onChange={(event) => setDescription(event.currentTarget.value)} error={errors.description} required />
          <TextInput
            label="Usage limit"
            description="How many orders may use it. Empty: no limit."
            value={usageLimit}
            onChange={(event) => setUsageLimit(event.currentTarget.value)}
            error={errors.usageLimit}
            inputMode="numeric"
            w={220}
          />
          <TextInput
            label="Expires"
            description="Empty: never. In your own time zone."
            type="datetime-local"
            value={expiresAt}
            onChange={(event) => setExpiresAt(event.currentTarget.value)}
            error={errors.expiresAt}
            w={260}
          />
          <Checkbox label="Active" checked={active} onChange={(event) => setActive(event.currentTarget.checked)} error={errors.active} />
          <Checkbox
            label="First order only (an email with no paid order yet)"
            checked={firstOrderOnly}
            onChange={(event) => setFirstOrderOnly(event.currentTarget.checked)}
            error={errors.firstOrderOnly}
          />
          <Group>
            <Button type="submit" loading={mutation.isPending}>
              {existing ? "Save code" : "Create code"}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
