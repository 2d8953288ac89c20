import { Button, Card, Checkbox, Group, Image, NativeSelect, SimpleGrid, Stack, Text, TextInput, Textarea } from "@mantine/core";
import { useList } from "@refinedev/core";
import { CAMPAIGN_LIMITS, type CampaignJson } from "@shop/campaigns";
import { termsInWords } from "@shop/discount-code";
import { dollarsToCents, formatCents } from "@shop/money";
import type { DiscountCodeJson, ProductJson } from "@shop/owner-records";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import type { FunctionBody } from "~/functions/registry.server";
import { fieldErrorsNote } from "../../api";
import { FormRefusal } from "../../components/form-refusal";
import { QueryError } from "../../components/loading";
import { useAdminForm } from "../../forms";
import { useFunctionMutation } from "../../functions";
import { answerToasts } from "../../toasts";
import { CampaignPreview } from "./preview";
import { SendPanel } from "./send-panel";

/** The draft as the form holds it: the text as typed, no code as "". */
type DraftFields = { subject: string; preheader: string; body: string; productIds: string[]; discountCode: string };

const fieldsOf = (campaign?: CampaignJson): DraftFields => ({
  subject: campaign?.subject ?? "",
  preheader: campaign?.preheader ?? "",
  body: campaign?.body ?? "",
  productIds: campaign?.productIds ?? [],
  discountCode: campaign?.discountCode ?? "",
});

/** The draft as save-campaign and preview-campaign take it; the shop checks and trims it. */
const draftOf = (fields: DraftFields) => ({
  subject: fields.subject,
  preheader: fields.preheader.trim() || null,
  body: fields.body,
  productIds: fields.productIds,
  discountCode: fields.discountCode || null,
});

/** What the message takes, in one line: the shop's small Markdown. */
const MARKDOWN_HINT = "A blank line starts a paragraph · **bold** · [words](https://link) · a line starting “- ” is a list item";

/**
 * The campaign's words, products and code, its live preview, and how to send
 * it. A new campaign is saved first (Save draft), then opens at its own
 * address; a saved one with changes not yet saved is saved before a test,
 * a send or a schedule, so what goes is what the preview shows.
 */
export function CampaignEditor({ campaign, onChanged }: { campaign?: CampaignJson; onChanged?: () => void }) {
  const navigate = useNavigate();
  const { form, refused, refusal, clearRefusal } = useAdminForm<DraftFields>(() => fieldsOf(campaign));
  const fields = form.getValues();
  const { call: save, mutation: saving } = useFunctionMutation("save-campaign");

  /**
   * Saves the draft. `then` (a test, a send) follows a save the owner did not
   * ask for by name, so only its failure is a toast, and `failed` lets the
   * dialog that asked step aside for the fields' messages.
   */
  function saveDraft(values: DraftFields, then?: (saved: CampaignJson) => void, failed?: () => void) {
    clearRefusal();
    const body: FunctionBody<"save-campaign"> = { ...(campaign && { id: campaign.id }), ...draftOf(values) };
    const toasts = answerToasts("campaign-save", { success: "Draft saved", error: "Could not save the campaign" }, fieldErrorsNote);
    save(body, then ? { ...toasts, successNotification: false } : toasts, {
      onSuccess: ({ data }) => {
        form.clearErrors();
        form.resetDirty(values);
        if (!campaign) void navigate(`/campaigns/${data.campaign.id}`, { replace: true });
        else if (then) then(data.campaign);
        else onChanged?.();
      },
      onError: (error) => {
        refused(error);
        failed?.();
      },
    });
  }

  /** Runs `action` on the saved campaign, saving the changes first; `failed` when that save is refused. */
  const whenSaved = (action: (id: string) => void, failed?: () => void) => {
    if (campaign && !form.isDirty()) action(campaign.id);
    else saveDraft(form.getValues(), (saved) => action(saved.id), failed);
  };

  const complete = fields.subject.trim() !== "" && fields.body.trim() !== "";

  return (
    <div className="campaign-layout">
      <Card
        withBorder
        radius="lg"
        component="form"
        onSubmit={form.onSubmit((values) => saveDraft(values))}
        noValidate
        aria-label="Campaign"
        className="campaign-layout__edit"
      >
        <Stack>
          <TextInput label="Subject" {...form.getInputProps("subject")} required maxLength={CAMPAIGN_LIMITS.subject} />
          <TextInput
            label="Preview text"
            description="Shown after the subject in most inboxes. Optional."
            {...form.getInputProps("preheader")}
            maxLength={CAMPAIGN_LIMITS.preheader}
          />
          <Textarea
            label="Message"
            description={MARKDOWN_HINT}
            {...form.getInputProps("body")}
            required
            autosize
            minRows={8}
            maxRows={24}
            maxLength={CAMPAIGN_LIMITS.body}
          />
          <ProductPicker value={fields.productIds} onChange={(ids) => form.setFieldValue("productIds", ids)} error={form.errors.productIds} />
          <CodePicker value={fields.discountCode} onChange={(code) => form.setFieldValue("discountCode", code)} error={form.errors.discountCode} />
          <FormRefusal message={refusal} />
          <Group>
            <Button type="submit" loading={saving.isPending}>
              Save draft
            </Button>
            {campaign && form.isDirty() ? (
              <Text size="sm" c="dimmed">
                Changes not saved yet
              </Text>
            ) : null}
          </Group>
        </Stack>
      </Card>
      <div className="campaign-layout__preview">
        <CampaignPreview source={complete ? draftOf(fields) : null} />
      </div>
      <div className="campaign-layout__send">
        {campaign ? (
          <SendPanel campaign={campaign} whenSaved={whenSaved} saving={saving.isPending} onChanged={onChanged} />
        ) : (
          <Card withBorder radius="lg">
            <Text size="sm" c="dimmed">
              Save the draft to send yourself a test, send it or schedule it.
            </Text>
          </Card>
        )}
      </div>
    </div>
  );
}

/**
 * The products shown as cards under the message, ticked in the order they
 * go (at most CAMPAIGN_LIMITS.products): the shop's, with their pictures and
 * prices; an archived one only while this campaign has it.
 */
function ProductPicker({ value, onChange, error }: { value: string[]; onChange: (ids: string[]) => void; error?: ReactNode }) {
  const { result, query } = useList<ProductJson>({ resource: "products", dataProviderName: "catalog", pagination: { mode: "off" }, errorNotification: false });
  // The shop refuses an archived product; one the campaign has stays shown (ticked, marked) for the message beside it to explain.
  const products = result.data.filter((product) => product.archivedAt === null || value.includes(product.id));
  const full = value.length >= CAMPAIGN_LIMITS.products;
  return (
    <Checkbox.Group
      label="Products"
      description={`Up to ${CAMPAIGN_LIMITS.products}, shown as cards under the message in the order you choose them. Optional.`}
      value={value}
      onChange={onChange}
      error={error}
    >
      {query.isError ? <QueryError title="Failed to fetch the products" message={query.error.message} onRetry={() => void query.refetch()} /> : null}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
        {products.map((product) => {
          const chosen = value.includes(product.id);
          return (
            <Checkbox.Card key={product.id} value={product.id} radius="md" p="xs" disabled={full && !chosen} className="product-choice">
              <Group wrap="nowrap" gap="sm" align="center">
                <Checkbox.Indicator />
                <Image src={product.image} alt="" w={48} h={36} radius="sm" fit="cover" />
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={700} lh={1.3}>
                    {product.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatCents(dollarsToCents(product.price))}
                    {chosen ? ` · card ${value.indexOf(product.id) + 1}` : ""}
                    {product.archivedAt ? " · archived" : ""}
                  </Text>
                </div>
              </Group>
            </Checkbox.Card>
          );
        })}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

/**
 * The discount code the email offers, from the shop's codes that customers
 * can use (active, not expired: the shop refuses others); one that starts
 * later may be announced. A code the campaign has that is no longer usable
 * stays shown as chosen, for the shop's message beside it to explain.
 */
function CodePicker({ value, onChange, error }: { value: string; onChange: (code: string) => void; error?: ReactNode }) {
  const { result } = useList<DiscountCodeJson>({
    resource: "discount-codes",
    dataProviderName: "catalog",
    pagination: { mode: "off" },
    errorNotification: false,
  });
  const codes = result.data.filter((code) => (code.active && !code.expired) || code.code === value);
  const options = [
    { value: "", label: "No code" },
    ...codes.map((code) => ({ value: code.code, label: `${code.code}: ${termsInWords(code)}` })),
    // A code this campaign has that the list does not (not loaded yet, or gone): still shown as chosen.
    ...(value && !codes.some((code) => code.code === value) ? [{ value, label: value }] : []),
  ];
  return (
    <NativeSelect
      label="Discount code"
      description="Optional. The email shows it with its terms, for the subscriber to type at checkout."
      data={options}
      maw={520}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
    />
  );
}
