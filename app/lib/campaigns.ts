/**
 * The owner's emails to the family list (decision 101), as the server checks
 * them and the admin's editor shows them. Browser-safe: limits, statuses and
 * the shape of a campaign as get-campaigns answers it.
 */

/** draft: being written; scheduled: waits for `sendAt`; sending: its copies are in the outbox; sent; cancelled (before or while it sent). */
export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "sent", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_LIMITS = {
  subject: 150,
  preheader: 200,
  body: 20_000,
  products: 4,
  /** How far ahead a campaign may be scheduled. */
  scheduleDays: 90,
} as const;

/** A campaign may be edited, sent or scheduled while it has not started. */
export const EDITABLE_STATUSES: readonly CampaignStatus[] = ["draft", "scheduled"];

/** What a campaign's copies came to: one outbox row for each recipient. */
export type CampaignCounts = {
  /** The subscribed addresses when sending started. */
  recipients: number;
  sent: number;
  /** Given up on after the outbox's retries (or refused outright by the mail server). */
  failed: number;
  /** Still to go (waiting or being sent). */
  waiting: number;
  /** Recipients who unsubscribed after it started (from it or otherwise). */
  unsubscribed: number;
};

/** A campaign as get-campaigns and save-campaign answer it. */
export type CampaignJson = {
  id: string;
  subject: string;
  preheader: string | null;
  body: string;
  productIds: string[];
  discountCode: string | null;
  status: CampaignStatus;
  /** When a scheduled campaign starts (ISO), and the same moment on the shop's clock ("2026-12-10T09:00", Los Angeles). */
  sendAt: string | null;
  sendAtLocal: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  cancelledAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  counts: CampaignCounts;
};
