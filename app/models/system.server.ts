import { sql } from "kysely";
import { db, inTransaction, sqlDb, sqlIn } from "~/utils/db.server";
import { recordAudit } from "~/models/audit.server";
import { paymentMismatchOf } from "~/models/orders.server";
import { readiness } from "~/services/health.server";
import type { EmailListStatus, EmailRow, SystemJson } from "~/lib/system";

/**
 * The owner's System page (decision 054): what the running shop is and how
 * its background work stands, from the database every instance shares.
 */

export { EMAIL_STATUSES, type EmailListStatus, type EmailRow, type SystemJson } from "~/lib/system";

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

export async function systemStatus(now = new Date()): Promise<SystemJson> {
  const ready = await readiness();
  const [version, pending, oldest, dead, sentLastDay, webhook, jobs, mismatches] = await Promise.all([
    sqlDb()
      .selectNoFrom(sql<string>`current_setting('server_version')`.as("version"))
      .executeTakeFirst()
      .then((row) => row?.version ?? null)
      .catch(() => null),
    // "sending" is pending work too: claimed by a worker, not yet handed over.
    db.outboxMessage.count({ where: { status: { in: ["pending", "sending"] } } }),
    db.outboxMessage.findFirst({ where: { status: { in: ["pending", "sending"] } }, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
    db.outboxMessage.count({ where: { status: "dead" } }),
    db.outboxMessage.count({ where: { status: "sent", sentAt: { gte: new Date(now.getTime() - 86_400_000) } } }),
    db.stripeEvent.findFirst({ orderBy: { receivedAt: "desc" } }),
    db.backgroundJob.findMany({ orderBy: { name: "asc" } }),
    db.auditEntry.findMany({ where: { action: "order.payment-mismatch" }, orderBy: { createdAt: "desc" }, take: 20 }),
  ]);
  return {
    release: ready.release,
    database: {
      ready: ready.status === "ready",
      reason: ready.status === "ready" ? null : ready.reason,
      migrations: ready.status === "ready" ? ready.migrations : null,
      version,
    },
    emails: { pending, oldestPendingAt: iso(oldest?.createdAt), dead, sentLastDay },
    lastWebhook: webhook ? { type: webhook.type, receivedAt: webhook.receivedAt.toISOString(), processed: webhook.processedAt !== null } : null,
    paymentMismatches: mismatches.flatMap((entry) => {
      const mismatch = paymentMismatchOf(entry);
      return mismatch
        ? [{ orderId: entry.subjectId, paidCents: mismatch.paidCents, totalCents: mismatch.totalCents, noticedAt: entry.createdAt.toISOString() }]
        : [];
    }),
    jobs: jobs.map((job) => ({
      name: job.name,
      lastStartedAt: iso(job.lastStartedAt),
      lastFinishedAt: iso(job.lastFinishedAt),
      lastResult: job.lastResult,
      lastError: job.lastError,
      failures: job.failures,
    })),
  };
}

/** Newest first; "pending" covers emails waiting and those a worker is handing over. */
export async function listEmails({ page, pageSize, status }: { page: number; pageSize: number; status: EmailListStatus | null }) {
  const where =
    status === null
      ? { status: { in: ["pending", "sending", "sent", "dead"] } }
      : status === "pending"
        ? { status: { in: ["pending", "sending"] } }
        : { status };
  const [rows, total] = await Promise.all([
    db.outboxMessage.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], skip: (page - 1) * pageSize, take: pageSize }),
    db.outboxMessage.count({ where }),
  ]);
  const resends = await db.auditEntry.findMany({
    where: { action: "email.resend", subjectId: { in: rows.map((row) => row.id) } },
    select: { subjectId: true, after: true },
  });
  const resentAs = new Map(resends.map((entry) => [entry.subjectId, (JSON.parse(entry.after ?? "{}") as { id?: string }).id ?? null]));
  const emails: EmailRow[] = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.to,
    subject: row.subject,
    status: row.status === "sending" ? "pending" : (row.status as EmailListStatus),
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
    resentAs: resentAs.get(row.id) ?? null,
  }));
  return { emails, total };
}

export type Resend = { ok: true; id: string } | { ok: false; status: 404 | 409; error: string };

/**
 * Queues one new copy of a sent or dead email (its content as it was), once:
 * a second Resend of the same email is refused with the copy's id. Audited;
 * the check and the copy are one transaction under a lock on the email's row.
 */
export async function resendEmail(actorEmail: string, id: string): Promise<Resend> {
  return inTransaction(async (tx) => {
    const original = await sqlIn(tx).db.selectFrom("OutboxMessage").select("id").where("id", "=", id).forUpdate().executeTakeFirst();
    if (!original) return { ok: false, status: 404, error: "No email with that id." };
    const email = await tx.outboxMessage.findUniqueOrThrow({ where: { id } });
    // Its words are rendered as it is sent, never stored (decision 101): the outbox retried it already.
    if (email.campaignId) return { ok: false, status: 409, error: "A campaign's copy is not resent by hand: it was tried as often as any email." };
    if (email.status !== "sent" && email.status !== "dead") {
      return {
        ok: false,
        status: 409,
        error:
          email.status === "withdrawn" ? "This email was withdrawn (its order was refunded): it is not sent again." : "This email is still waiting to go out.",
      };
    }
    const earlier = await tx.auditEntry.findFirst({ where: { action: "email.resend", subjectId: id } });
    if (earlier)
      return {
        ok: false,
        status: 409,
        error: `This email was resent already (as ${(JSON.parse(earlier.after ?? "{}") as { id?: string }).id ?? "a new copy"}).`,
      };
    const copy = await tx.outboxMessage.create({
      data: {
        kind: email.kind,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        unsubscribeUrl: email.unsubscribeUrl,
        orderId: email.orderId,
      },
    });
    await recordAudit(tx, {
      actorEmail,
      action: "email.resend",
      subjectType: "email",
      subjectId: id,
      before: { status: email.status },
      after: { id: copy.id },
    });
    return { ok: true, id: copy.id };
  });
}
