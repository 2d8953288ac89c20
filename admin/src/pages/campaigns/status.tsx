import { Badge } from "@mantine/core";
import type { CampaignJson, CampaignStatus } from "@shop/campaigns";
import { orderDate } from "../../components/status";

/** How often a campaign going out is asked for again: its counts move as the outbox sends. */
export const SENDING_POLL_MS = 2_000;

/** Each status in words, and its badge: a clear tint behind a deep shade of its colour, 4.5:1 and more (as the orders' badges). */
const STATUS_BADGES: Record<CampaignStatus, { label: string; bg: string; c: string }> = {
  draft: { label: "Draft", bg: "#f1e3d5", c: "#5b3421" },
  scheduled: { label: "Scheduled", bg: "#d0ebff", c: "#1864ab" },
  sending: { label: "Sending", bg: "#ffe066", c: "#5c4200" },
  sent: { label: "Sent", bg: "#d3f9d8", c: "#1f6b30" },
  cancelled: { label: "Cancelled", bg: "#e9ecef", c: "#495057" },
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { label, ...colors } = STATUS_BADGES[status];
  return (
    <Badge {...colors} variant="light" tt="none" miw="max-content" data-testid="campaign-status">
      {label}
    </Badge>
  );
}

/** When a campaign went, goes or stopped, in the shop's time: "Sent Dec 10, 2026, 9:04 AM". */
export function campaignWhen(campaign: CampaignJson) {
  switch (campaign.status) {
    case "draft":
      return `Last saved ${orderDate(campaign.updatedAt)}`;
    case "scheduled":
      return campaign.sendAt ? `Goes out ${orderDate(campaign.sendAt)} (Los Angeles)` : "Scheduled";
    case "sending":
      return campaign.startedAt ? `Sending since ${orderDate(campaign.startedAt)}` : "Sending";
    case "sent":
      // Its last copy gone, before the campaigns job has recorded when: when it started, then.
      return campaign.finishedAt ? `Sent ${orderDate(campaign.finishedAt)}` : "Sent";
    case "cancelled":
      return campaign.cancelledAt ? `Cancelled ${orderDate(campaign.cancelledAt)}` : "Cancelled";
  }
}

/** Whether a campaign has copies to count: it started (a campaign cancelled before it started has none). */
export const hasStarted = (campaign: CampaignJson) => campaign.startedAt !== null;

/**
 * How far a campaign's copies have got, of those it had to send: each that no
 * longer waits (sent, failed, or withdrawn because its subscriber left
 * meanwhile); once cancelled, those that went (sent or failed). 100% only
 * when every one is done, never by rounding.
 */
export function doneOf({ status, counts }: CampaignJson) {
  const done = status === "cancelled" ? counts.sent + counts.failed : counts.recipients - counts.waiting;
  const percent = counts.recipients === 0 || done >= counts.recipients ? 100 : Math.floor((done / counts.recipients) * 100);
  return { done, percent };
}

/** The counts in a line: "12 sent · 1 failed · 3 waiting · 0 unsubscribed since". */
export function countsInWords({ counts }: CampaignJson) {
  return [
    `${counts.sent} sent`,
    `${counts.failed} failed`,
    ...(counts.waiting > 0 ? [`${counts.waiting} waiting`] : []),
    `${counts.unsubscribed} unsubscribed since`,
  ].join(" · ");
}
