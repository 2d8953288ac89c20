import { sql } from "kysely";
import type { Prisma } from "~/generated/prisma/client";
import { CAMPAIGN_LIMITS, EDITABLE_STATUSES, type CampaignCounts, type CampaignJson, type CampaignStatus } from "~/lib/campaigns";
import { shopWallClock } from "~/lib/dates";
import { recordAudit } from "~/models/audit.server";
import { productsAndSettings, shopSettings } from "~/models/catalog.server";
import { emailImageUrl } from "~/models/email-images.server";
import { campaignEmail, type CampaignForEmail } from "~/services/emails.server";
import { enqueueEmails } from "~/services/outbox.server";
import { db, inTransaction, instant, sqlDb, sqlIn, type Sql } from "~/utils/db.server";
import { publicOrigin } from "~/utils/origin.server";

/**
 * The owner's emails to the family list (decision 101). A campaign is
 * written as a draft, then sent now or scheduled. Sending starts in one
 * transaction: the campaign's content is fixed (the products as they are
 * then) and one outbox row is written for each subscribed address, priority
 * 1, so the shop's own emails go first. The outbox sends them at the mail
 * server's speed from every instance, rendering each copy as it goes
 * (app/services/campaign-copy.server.ts). An unsubscribe, a forget or a
 * cancel withdraws the copies not yet gone.
 */

export type CampaignDraft = {
  subject: string;
  preheader: string | null;
  body: string;
  productIds: string[];
  discountCode: string | null;
};

type Refusal = { ok: false; status: 400 | 404 | 409; error: string; fieldErrors?: Record<string, string> };

/** What a campaign's copies are rendered from once it starts: fixed then, whatever changes after. */
export type CampaignContent = CampaignForEmail & { postalAddress: string };

type CampaignRow = Awaited<ReturnType<typeof db.campaign.findUniqueOrThrow>>;

const NO_SUCH_CAMPAIGN: Refusal = { ok: false, status: 404, error: "No campaign with that id." };
const STARTED: Refusal = { ok: false, status: 409, error: "This campaign has started sending: it can no longer be changed." };
export const NO_POSTAL_ADDRESS =
  "Set the shop's postal address in Settings first: every campaign carries it at its foot, as the law on commercial email (CAN-SPAM) asks.";

/** The products and code a draft names, checked: unknown ones are refused by field. */
async function checkDraft(draft: CampaignDraft): Promise<{ ok: true; content: CampaignForEmail } | Refusal> {
  const fieldErrors: Record<string, string> = {};
  const { products } = await productsAndSettings(draft.productIds);
  const missing = draft.productIds.filter((id) => !products.some((product) => product.id === id && product.forSale));
  if (missing.length > 0) fieldErrors.productIds = `Not in the shop: ${missing.join(", ")}`;
  if (draft.discountCode) {
    const code = await db.discountCode.findUnique({ where: { code: draft.discountCode }, select: { active: true, expiresAt: true } });
    if (!code) fieldErrors.discountCode = "No such code";
    else if (!code.active) fieldErrors.discountCode = "This code is switched off";
    else if (code.expiresAt && code.expiresAt <= new Date()) fieldErrors.discountCode = "This code has expired";
  }
  if (Object.keys(fieldErrors).length > 0) return { ok: false, status: 400, error: Object.values(fieldErrors).join(". "), fieldErrors };
  const origin = publicOrigin();
  const byId = new Map(products.map((product) => [product.id, product]));
  return {
    ok: true,
    content: {
      subject: draft.subject,
      preheader: draft.preheader,
      body: draft.body,
      products: draft.productIds.flatMap((id) => {
        const product = byId.get(id);
        if (!product) return [];
        // Email shows neither the artwork's SVG nor an upload's WebP: their JPEG.
        const image = product.image ? emailImageUrl(product.image) : null;
        return [
          {
            id: product.id,
            name: product.name,
            priceCents: product.priceCents,
            imageUrl: image ? `${origin}${image}` : null,
            url: `${origin}/shop/${encodeURIComponent(product.id)}`,
          },
        ];
      }),
      discountCode: draft.discountCode,
      shopUrl: `${origin}/shop`,
    },
  };
}

const draftOf = (row: CampaignRow): CampaignDraft => ({
  subject: row.subject,
  preheader: row.preheader,
  body: row.body,
  productIds: row.productIds,
  discountCode: row.discountCode,
});

const iso = (date: Date | null) => date?.toISOString() ?? null;

function campaignJson(row: CampaignRow, counts: CampaignCounts): CampaignJson {
  return {
    id: row.id,
    ...draftOf(row),
    status: row.status as CampaignStatus,
    sendAt: iso(row.sendAt),
    sendAtLocal: row.sendAt ? shopWallClock(row.sendAt) : null,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    cancelledAt: iso(row.cancelledAt),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    counts,
  };
}

/** Each campaign's copies by status, and its recipients who have unsubscribed since it started: two grouped reads. */
async function countsOf(rows: CampaignRow[]): Promise<Map<string, CampaignCounts>> {
  const started = rows.filter((row) => row.startedAt !== null);
  const counts = new Map(rows.map((row) => [row.id, { recipients: row.recipients, sent: 0, failed: 0, waiting: 0, unsubscribed: 0 }]));
  if (started.length === 0) return counts;
  const ids = started.map((row) => row.id);
  const [byStatus, unsubscribed] = await Promise.all([
    sqlDb()
      .selectFrom("OutboxMessage")
      .select((eb) => [
        "campaignId",
        eb.fn.countAll<number>().filterWhere("status", "=", "sent").as("sent"),
        eb.fn.countAll<number>().filterWhere("status", "=", "dead").as("failed"),
        eb.fn.countAll<number>().filterWhere("status", "in", ["pending", "sending"]).as("waiting"),
      ])
      .where("campaignId", "in", ids)
      .groupBy("campaignId")
      .execute(),
    sqlDb()
      .selectFrom("OutboxMessage as m")
      .innerJoin("Campaign as c", "c.id", "m.campaignId")
      .innerJoin("Subscriber as s", "s.id", "m.subscriberId")
      .select((eb) => ["m.campaignId", eb.fn.countAll<number>().as("unsubscribed")])
      .where("m.campaignId", "in", ids)
      .whereRef("s.unsubscribedAt", ">=", "c.startedAt")
      .groupBy("m.campaignId")
      .execute(),
  ]);
  for (const row of byStatus) {
    const entry = counts.get(row.campaignId ?? "");
    if (entry) Object.assign(entry, { sent: Number(row.sent), failed: Number(row.failed), waiting: Number(row.waiting) });
  }
  for (const row of unsubscribed) {
    const entry = counts.get(row.campaignId ?? "");
    if (entry) entry.unsubscribed = Number(row.unsubscribed);
  }
  return counts;
}

async function withCounts(rows: CampaignRow[]): Promise<CampaignJson[]> {
  const counts = await countsOf(rows);
  return rows.map((row) => campaignJson(row, counts.get(row.id) ?? { recipients: 0, sent: 0, failed: 0, waiting: 0, unsubscribed: 0 }));
}

async function oneCampaign(id: string): Promise<CampaignJson> {
  const [campaign] = await withCounts([await db.campaign.findUniqueOrThrow({ where: { id } })]);
  return campaign!;
}

export async function listCampaigns({ page, pageSize, id }: { page: number; pageSize: number; id?: string }) {
  // One that has just finished reads as sent, with its time, without waiting for the job.
  await finishCampaigns(new Date());
  const where = id ? { id } : {};
  const [rows, total] = await Promise.all([
    db.campaign.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: (page - 1) * pageSize, take: pageSize }),
    db.campaign.count({ where }),
  ]);
  return { campaigns: await withCounts(rows), total };
}

export async function saveCampaign(actorEmail: string, input: CampaignDraft & { id?: string }): Promise<{ ok: true; campaign: CampaignJson } | Refusal> {
  const checked = await checkDraft(input);
  if (!checked.ok) return checked;
  const draft: CampaignDraft = {
    subject: input.subject,
    preheader: input.preheader,
    body: input.body,
    productIds: input.productIds,
    discountCode: input.discountCode,
  };
  const saved = await inTransaction(async (tx): Promise<{ ok: true; id: string } | Refusal> => {
    if (!input.id) {
      const created = await tx.campaign.create({ data: { ...draft, createdBy: actorEmail } });
      await recordAudit(tx, { actorEmail, action: "campaign.save", subjectType: "campaign", subjectId: created.id, before: null, after: draft });
      return { ok: true, id: created.id };
    }
    const before = await tx.campaign.findUnique({ where: { id: input.id } });
    if (!before) return NO_SUCH_CAMPAIGN;
    // Only while it has not started: the status is checked again by the write itself.
    const { count } = await tx.campaign.updateMany({ where: { id: input.id, status: { in: [...EDITABLE_STATUSES] } }, data: draft });
    if (count === 0) return STARTED;
    await recordAudit(tx, { actorEmail, action: "campaign.save", subjectType: "campaign", subjectId: input.id, before: draftOf(before), after: draft });
    return { ok: true, id: input.id };
  });
  if (!saved.ok) return saved;
  return { ok: true, campaign: await oneCampaign(saved.id) };
}

/** A copy's unsubscribe link in a preview or a test: it names no subscriber, so the page it opens says the link is not valid. */
const SAMPLE_UNSUBSCRIBE = "/unsubscribe?token=preview";

/** The email as a subscriber gets it, from a saved campaign (its fixed content once started) or a draft being written. */
export async function previewCampaign(
  source: { id: string } | { draft: CampaignDraft },
): Promise<{ ok: true; email: { subject: string; preheader: string | null; html: string; text: string } } | Refusal> {
  let content: CampaignForEmail;
  if ("id" in source) {
    const row = await db.campaign.findUnique({ where: { id: source.id } });
    if (!row) return NO_SUCH_CAMPAIGN;
    const fixed = row.content as CampaignContent | null;
    if (fixed) content = fixed;
    else {
      const checked = await checkDraft(draftOf(row));
      if (!checked.ok) return checked;
      content = checked.content;
    }
  } else {
    const checked = await checkDraft(source.draft);
    if (!checked.ok) return checked;
    content = checked.content;
  }
  const postalAddress = (await shopSettings({ maxAgeMs: 0 })).postalAddress ?? "";
  const email = await campaignEmail(content, { email: "", unsubscribeUrl: `${publicOrigin()}${SAMPLE_UNSUBSCRIBE}` }, { postalAddress });
  return { ok: true, email: { subject: email.subject, preheader: content.preheader, html: email.html, text: email.text } };
}

export async function sendTestCampaign(actorEmail: string, id: string, to: string): Promise<{ ok: true } | Refusal> {
  const preview = await previewCampaign({ id });
  if (!preview.ok) return preview;
  await inTransaction(async (tx) => {
    await enqueueEmails(sqlIn(tx), [
      { kind: "campaign-test", to, subject: `[Test] ${preview.email.subject}`, text: preview.email.text, html: preview.email.html },
    ]);
    await recordAudit(tx, { actorEmail, action: "campaign.test", subjectType: "campaign", subjectId: id, before: null, after: null });
  });
  return { ok: true };
}

/**
 * Sends a campaign now (`at` null or past due by less than a minute) or
 * schedules it. Refused without the shop's postal address, once it has
 * started, and for a time more than CAMPAIGN_LIMITS.scheduleDays ahead.
 */
export async function sendCampaign(actorEmail: string, id: string, at: Date | null, now = new Date()): Promise<{ ok: true; campaign: CampaignJson } | Refusal> {
  const row = await db.campaign.findUnique({ where: { id } });
  if (!row) return NO_SUCH_CAMPAIGN;
  if (!EDITABLE_STATUSES.includes(row.status as CampaignStatus)) return STARTED;
  const postalAddress = (await shopSettings({ maxAgeMs: 0 })).postalAddress;
  if (!postalAddress) return { ok: false, status: 409, error: NO_POSTAL_ADDRESS };
  const checked = await checkDraft(draftOf(row));
  if (!checked.ok) return checked;
  if (at && at.getTime() < now.getTime() - 60_000) {
    return { ok: false, status: 400, error: "at: That time has passed", fieldErrors: { at: "That time has passed" } };
  }
  if (at && at.getTime() > now.getTime() + CAMPAIGN_LIMITS.scheduleDays * 24 * 60 * 60_000) {
    const message = `At most ${CAMPAIGN_LIMITS.scheduleDays} days ahead`;
    return { ok: false, status: 400, error: `at: ${message}`, fieldErrors: { at: message } };
  }
  if (at && at.getTime() > now.getTime()) {
    const { count } = await inTransaction(async (tx) => {
      const scheduled = await tx.campaign.updateMany({ where: { id, status: { in: [...EDITABLE_STATUSES] } }, data: { status: "scheduled", sendAt: at } });
      if (scheduled.count === 1) {
        await recordAudit(tx, { actorEmail, action: "campaign.schedule", subjectType: "campaign", subjectId: id, before: null, after: { sendAt: at } });
      }
      return scheduled;
    });
    if (count === 0) return STARTED;
    return { ok: true, campaign: await oneCampaign(id) };
  }
  const subscribed = await db.subscriber.count({ where: { unsubscribedAt: null } });
  if (subscribed === 0) return { ok: false, status: 409, error: "Nobody is subscribed to the list yet." };
  const started = await startCampaign(id, { ...checked.content, postalAddress }, now, actorEmail);
  if (!started) return STARTED;
  return { ok: true, campaign: await oneCampaign(id) };
}

/**
 * Starts sending, once, whichever instance or request gets here first: the
 * campaign moves to "sending" with its content fixed, and each subscribed
 * address gets one outbox row (the unique key on campaign and subscriber
 * holds that). The subscribers read are locked FOR SHARE: an unsubscribe at
 * that moment waits for this to commit and then withdraws its row, or
 * commits first and is not read. Answers false when the campaign was not
 * startable (another start won, or it was cancelled).
 */
export async function startCampaign(id: string, content: CampaignContent, now: Date, actorEmail: string): Promise<boolean> {
  return inTransaction(
    async (tx) => {
      const { count } = await tx.campaign.updateMany({
        where: { id, status: { in: [...EDITABLE_STATUSES] } },
        data: { status: "sending", startedAt: now, sendAt: now, content: content as unknown as Prisma.InputJsonValue },
      });
      if (count === 0) return false;
      const recipients = await queueCopies(sqlIn(tx), id, content.subject, now);
      await tx.campaign.update({ where: { id }, data: { recipients } });
      await recordAudit(tx, { actorEmail, action: "campaign.send", subjectType: "campaign", subjectId: id, before: null, after: { recipients } });
      return true;
    },
    // A long list is written in one statement; give it time.
    { timeout: 120_000 },
  );
}

/** One outbox row for each subscribed address: its text and HTML are rendered when it is sent. Answers how many. */
async function queueCopies(sql_: Sql, campaignId: string, subject: string, now: Date): Promise<number> {
  const origin = publicOrigin();
  const result = await sql<{ id: string }>`
    INSERT INTO "OutboxMessage" ("id", "kind", "to", "subject", "text", "html", "unsubscribeUrl", "campaignId", "subscriberId", "priority", "status", "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid()::text, 'campaign', s."email", ${subject}, '', '', ${`${origin}/unsubscribe?token=`} || s."unsubscribeToken",
           ${campaignId}, s."id", 1, 'pending', ${instant(now)}, ${instant(now)}
    FROM (SELECT "id", "email", "unsubscribeToken" FROM "Subscriber" WHERE "unsubscribedAt" IS NULL FOR SHARE) AS s
    ON CONFLICT ("campaignId", "subscriberId") DO NOTHING
    RETURNING "id"`.execute(sql_.db);
  return result.rows.length;
}

/**
 * Cancels a scheduled or sending campaign: what has not gone yet does not go.
 * The copies waiting, and those claimed but not yet handed to the mail server,
 * are withdrawn in the same transaction; a worker checks its claim before
 * each send, so a withdrawn copy is never sent.
 */
export async function cancelCampaign(actorEmail: string, id: string, now = new Date()): Promise<{ ok: true; campaign: CampaignJson } | Refusal> {
  const result = await inTransaction(async (tx): Promise<{ ok: true } | Refusal> => {
    const row = await tx.campaign.findUnique({ where: { id } });
    if (!row) return NO_SUCH_CAMPAIGN;
    const { count } = await tx.campaign.updateMany({
      where: { id, status: { in: ["scheduled", "sending"] } },
      data: { status: "cancelled", cancelledAt: now },
    });
    if (count === 0) {
      return {
        ok: false,
        status: 409,
        error: row.status === "draft" ? "This campaign is a draft: there is nothing to cancel." : `This campaign is ${row.status} already.`,
      };
    }
    const withdrawn = await withdrawCopies(sqlIn(tx), { campaignId: id }, "Its campaign was cancelled");
    await recordAudit(tx, {
      actorEmail,
      action: "campaign.cancel",
      subjectType: "campaign",
      subjectId: id,
      before: { status: row.status },
      after: { withdrawn },
    });
    return { ok: true };
  });
  if (!result.ok) return result;
  return { ok: true, campaign: await oneCampaign(id) };
}

/** Withdraws the campaign copies not yet gone: a campaign's (cancelled), or a subscriber's (unsubscribed, forgotten). */
export async function withdrawCopies(sql_: Sql, which: { campaignId: string } | { subscriberIds: string[] }, reason: string): Promise<number> {
  if ("subscriberIds" in which && which.subscriberIds.length === 0) return 0;
  const result = await sql_.db
    .updateTable("OutboxMessage")
    .set({ status: "withdrawn", claimedBy: null, claimedUntil: null, lastError: reason })
    .where((eb) => ("campaignId" in which ? eb("campaignId", "=", which.campaignId) : eb("subscriberId", "in", which.subscriberIds)))
    .where("campaignId", "is not", null)
    .where("status", "in", ["pending", "sending"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The campaigns job (app/services/background-work.server.ts): starts the
 * scheduled campaigns whose time has come, and records as sent those with
 * nothing left to go. Answers what it did, for the job's log line.
 */
export async function runCampaigns(now = new Date()): Promise<string> {
  const due = await db.campaign.findMany({ where: { status: "scheduled", sendAt: { lte: now } }, orderBy: { sendAt: "asc" } });
  let started = 0;
  for (const row of due) {
    const postalAddress = (await shopSettings({ maxAgeMs: 0 })).postalAddress;
    const checked = await checkDraft(draftOf(row));
    if (!postalAddress || !checked.ok) {
      // What was fine when it was scheduled is not now (the address cleared, a product archived): it waits, and the owner sees why.
      console.error(`Campaign ${row.id} is due but cannot start: ${!postalAddress ? NO_POSTAL_ADDRESS : checked.ok ? "" : checked.error}`);
      continue;
    }
    if (await startCampaign(row.id, { ...checked.content, postalAddress }, now, "schedule")) started++;
  }
  return `${started} campaigns started, ${await finishCampaigns(now)} finished`;
}

/** Records as sent each campaign that is sending with no copy left to go; answers how many. */
async function finishCampaigns(now: Date): Promise<number> {
  const finished = await sqlDb()
    .updateTable("Campaign as c")
    .set({ status: "sent", finishedAt: instant(now) })
    .where("c.status", "=", "sending")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("OutboxMessage as m")
            .select(sql`1`.as("one"))
            .whereRef("m.campaignId", "=", "c.id")
            .where("m.status", "in", ["pending", "sending"]),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(finished.numUpdatedRows);
}
