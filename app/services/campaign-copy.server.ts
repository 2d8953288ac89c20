import type { CampaignContent } from "~/models/campaigns.server";
import { campaignEmail } from "~/services/emails.server";
import type { OutgoingEmail } from "~/services/mailer.server";
import { db } from "~/utils/db.server";

/**
 * A campaign's copy for one subscriber, rendered as the outbox sends it
 * (decision 101): the campaign's fixed content with this subscriber's
 * unsubscribe link. The content is read once per campaign and process: it
 * does not change once sending has started.
 */

const KEPT = 8;
const contents = new Map<string, CampaignContent>();

async function contentOf(campaignId: string): Promise<CampaignContent | null> {
  const kept = contents.get(campaignId);
  if (kept) return kept;
  const row = await db.campaign.findUnique({ where: { id: campaignId }, select: { content: true } });
  const content = (row?.content ?? null) as CampaignContent | null;
  if (!content) return null;
  if (contents.size >= KEPT) contents.delete(contents.keys().next().value as string);
  contents.set(campaignId, content);
  return content;
}

/** The email to send for a claimed campaign row, or null when its campaign is gone. */
export async function campaignCopy(row: { id: string; to: string; campaignId: string; unsubscribeUrl: string | null }): Promise<OutgoingEmail | null> {
  const content = await contentOf(row.campaignId);
  if (!content || !row.unsubscribeUrl) return null;
  const email = await campaignEmail(content, { email: row.to, unsubscribeUrl: row.unsubscribeUrl }, { postalAddress: content.postalAddress });
  return { id: row.id, to: row.to, subject: email.subject, text: email.text, html: email.html, unsubscribeUrl: row.unsubscribeUrl };
}
