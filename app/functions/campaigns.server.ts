import { z } from "zod";
import { CAMPAIGN_LIMITS } from "~/lib/campaigns";
import { DISCOUNT_CODE_MAX_LENGTH } from "~/lib/discount-code";
import { shopWallClockToInstant } from "~/lib/dates";
import { cancelCampaign, listCampaigns, previewCampaign, saveCampaign, sendCampaign, sendTestCampaign } from "~/models/campaigns.server";
import { importSubscribers, IMPORT_LIMITS } from "~/models/subscriber-import.server";
import { apiError } from "~/utils/api.server";
import { answer, defineFunction } from "./define.server";

/** One line of words: a line break in a subject would be a header of its own. */
const line = (label: string, max: number) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} must be text` })
    .trim()
    .max(max, `At most ${max} characters`)
    .refine((text) => !/[\r\n]/.test(text), `${label} is one line`);

const campaignId = z.string({ required_error: "is required", invalid_type_error: "must be text" }).uuid("must be a campaign's id");

const draftFields = {
  subject: line("The subject", CAMPAIGN_LIMITS.subject).pipe(z.string().min(1, "The subject is required")),
  preheader: line("The preview text", CAMPAIGN_LIMITS.preheader)
    .nullish()
    .transform((text) => text || null),
  body: z
    .string({ required_error: "The message is required", invalid_type_error: "The message must be text" })
    .trim()
    .min(1, "The message is required")
    .max(CAMPAIGN_LIMITS.body, `At most ${CAMPAIGN_LIMITS.body} characters`),
  productIds: z
    .array(z.string({ invalid_type_error: "must be a product's id" }).min(1).max(64), { invalid_type_error: "must be a list" })
    .max(CAMPAIGN_LIMITS.products, `At most ${CAMPAIGN_LIMITS.products} products`)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  discountCode: z
    .string({ invalid_type_error: "The code must be text" })
    .trim()
    .max(DISCOUNT_CODE_MAX_LENGTH, `At most ${DISCOUNT_CODE_MAX_LENGTH} characters`)
    .nullish()
    .transform((code) => (code ? code.toUpperCase() : null)),
};

const saveSchema = z.object({ id: campaignId.optional(), ...draftFields }).strict();

/** A saved campaign's id, or a draft as the editor holds it (for the live preview before it is saved). */
const previewSchema = z.union([z.object({ id: campaignId }).strict(), z.object(draftFields).strict()]);

/** "2026-12-10T09:00" on the shop's clock (Los Angeles), or an ISO moment with its offset. */
const sendAt = z.string({ invalid_type_error: "must be a time, e.g. 2026-12-10T09:00" }).transform((text, context) => {
  const moment = shopWallClockToInstant(text) ?? (/[zZ]|[+-]\d{2}:\d{2}$/.test(text) ? new Date(text) : null);
  if (!moment || Number.isNaN(moment.getTime())) {
    context.addIssue({ code: "custom", message: "must be a time, e.g. 2026-12-10T09:00 (Los Angeles)" });
    return z.NEVER;
  }
  return moment;
});

const EXAMPLE_DRAFT = {
  subject: "Meet Maple Pecan: our new bar",
  preheader: "Fresh from the kitchen this week",
  body: "Our newest bar is **Maple Pecan**.\n\n- Organic peanut butter\n- Real maple\n\nSee it in [the shop](https://chillpb.com/shop).",
  productIds: ["bar-chocolate-pb"],
  discountCode: "WELCOME10",
} satisfies z.input<typeof saveSchema>;

const EXAMPLE_ID = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f";

/** The owner's emails to the family list (decision 101). */
export const campaignFunctions = {
  /** { page?, pageSize? } → { campaigns: [CampaignJson with status and counts], total }, newest first. */
  "get-campaigns": defineFunction({
    access: "campaigns.manage",
    body: z
      .object({ page: z.number().int().min(1).max(10_000).default(1), pageSize: z.number().int().min(1).max(100).default(20), id: campaignId.optional() })
      .strict(),
    example: { page: 1, pageSize: 20 },
    run: ({ body }) => listCampaigns(body),
  }),

  /**
   * { id?, subject, preheader?, body, productIds?, discountCode? } → the saved
   * campaign (201 when new). A campaign that has started sending is not
   * edited (409); unknown products or codes are 400 by field.
   */
  "save-campaign": defineFunction({
    access: "campaigns.manage",
    body: saveSchema,
    example: EXAMPLE_DRAFT,
    async run({ body, admin }) {
      const saved = await saveCampaign(admin.email, body);
      if (!saved.ok) return apiError(saved.status, saved.error, saved.fieldErrors ? { fieldErrors: saved.fieldErrors } : undefined);
      return answer({ campaign: saved.campaign }, { status: body.id ? 200 : 201 });
    },
  }),

  /** { id } or a draft → { subject, preheader, html, text }: the email as a subscriber gets it (their unsubscribe link aside). */
  "preview-campaign": defineFunction({
    access: "campaigns.manage",
    body: previewSchema,
    example: { id: EXAMPLE_ID },
    async run({ body }) {
      const preview = await previewCampaign("id" in body ? { id: body.id } : { draft: body });
      if (!preview.ok) return apiError(preview.status, preview.error, preview.fieldErrors ? { fieldErrors: preview.fieldErrors } : undefined);
      return preview.email;
    },
  }),

  /** { id, email } → { message }: one copy, subject marked "[Test]", to that address only, through the outbox. */
  "send-test-campaign": defineFunction({
    access: "campaigns.manage",
    body: z
      .object({
        id: campaignId,
        email: z.string({ required_error: "is required" }).trim().email("is not an email address").max(254, "is too long"),
      })
      .strict(),
    example: { id: EXAMPLE_ID, email: "owner@example.com" },
    async run({ body, admin }) {
      const sent = await sendTestCampaign(admin.email, body.id, body.email);
      if (!sent.ok) return apiError(sent.status, sent.error);
      return { message: `A test copy is on its way to ${body.email}.` };
    },
  }),

  /**
   * { id, at? } → the campaign, sending (now) or scheduled (at, on the shop's
   * clock: "2026-12-10T09:00" in Los Angeles, or an ISO moment). 409 without
   * the shop's postal address (Settings), for a campaign already under way, or
   * for an empty list; 400 for a time past or more than 90 days ahead.
   */
  "send-campaign": defineFunction({
    access: "campaigns.manage",
    body: z.object({ id: campaignId, at: sendAt.nullish() }).strict(),
    example: { id: EXAMPLE_ID, at: "2026-12-10T09:00" },
    async run({ body, admin }) {
      const sent = await sendCampaign(admin.email, body.id, body.at ?? null);
      if (!sent.ok) return apiError(sent.status, sent.error, sent.fieldErrors ? { fieldErrors: sent.fieldErrors } : undefined);
      return { campaign: sent.campaign };
    },
  }),

  /** { id } → the campaign, cancelled: scheduled, it never starts; sending, what has not gone yet does not go. 409 once sent. */
  "cancel-campaign": defineFunction({
    access: "campaigns.manage",
    body: z.object({ id: campaignId }).strict(),
    example: { id: EXAMPLE_ID },
    async run({ body, admin }) {
      const cancelled = await cancelCampaign(admin.email, body.id);
      if (!cancelled.ok) return apiError(cancelled.status, cancelled.error);
      return { campaign: cancelled.campaign };
    },
  }),

  /**
   * POST multipart/form-data with `file`: a CSV of an existing list, with a
   * header row naming `email` and `consent` (yes/true/1, or the day they gave
   * it), and optionally `consented_at` and `note`. → { added, alreadySubscribed,
   * refused: [{ line, email, reason }] }. Only addresses with consent are
   * added; one who unsubscribed is never signed up again; none is sent a welcome.
   */
  "import-subscribers": defineFunction({
    access: "campaigns.manage",
    multipart: { limit: IMPORT_LIMITS.bytes, field: "file", message: `The file is over ${IMPORT_LIMITS.bytes / 1_000_000} MB` },
    body: z.object({
      file: z.custom<Blob>((value) => value instanceof Blob && value.size > 0, "Choose a CSV file"),
    }),
    async run({ body, admin }) {
      const result = await importSubscribers(admin.email, await body.file.text());
      if (!result.ok) return apiError(400, result.error, { fieldErrors: { file: result.error } });
      return result.report;
    },
  }),
};
