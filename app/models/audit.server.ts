import type { Prisma } from "~/generated/prisma/client";
import { at, db, type SqlDatabase } from "~/utils/db.server";
import type { AuditRecord } from "~/lib/owner-records";

/**
 * The record of operators' changes (decision 021): who changed what, when, and
 * the subject's fields before and after. Written in the same transaction as
 * the change itself, so a change is never without its record.
 */

export type AuditAction =
  | "product.update"
  | "product.create"
  | "product.archive"
  | "product.restore"
  | "product.picture"
  | "discount-code.save"
  | "order.refund"
  | "order.refund-refused"
  | "order.tracking"
  | "order.customer-details"
  | "order.cancel"
  /** Its delivery day moved (decision 100): by "customer" from their order page, or by an operator. */
  | "order.delivery-day"
  /** Stripe reported another amount paid than the order's total (decision 080); by "Stripe". */
  | "order.payment-mismatch"
  | "operator.save"
  | "operator.remove"
  | "settings.save"
  | "email.resend"
  | "customer.export"
  | "customer.forget"
  /** The owner's emails to the list (decision 101): written, a test copy sent, sent or scheduled, cancelled; a list imported. */
  | "campaign.save"
  | "campaign.test"
  | "campaign.send"
  | "campaign.schedule"
  | "campaign.cancel"
  | "subscribers.import";
/** "customer": a mailbox's data request, its subject a hash of the mailbox (app/models/customer-data.server.ts). */
export type AuditSubject = "product" | "discount-code" | "order" | "operator" | "settings" | "email" | "customer" | "campaign" | "subscribers";

export type AuditInput = {
  actorEmail: string;
  action: AuditAction;
  subjectType: AuditSubject;
  subjectId: string;
  /** The subject's fields before the change (null when it is new). */
  before: unknown;
  after: unknown;
};

const auditRow = (entry: AuditInput) => ({
  actorEmail: entry.actorEmail,
  action: entry.action,
  subjectType: entry.subjectType,
  subjectId: entry.subjectId,
  before: entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
  after: entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after),
});

export async function recordAudit(tx: Prisma.TransactionClient, entry: AuditInput) {
  await tx.auditEntry.create({ data: auditRow(entry) });
}

/**
 * Several records in one INSERT through node-pg (a day sheet's looks at every
 * order it lists): Prisma's createMany spent 30-60 ms of its engine's CPU
 * building 500 rows.
 */
export async function recordAudits(sql: SqlDatabase, entries: AuditInput[]) {
  if (entries.length === 0) return;
  const createdAt = at(new Date());
  await sql
    .insertInto("AuditEntry")
    .values(entries.map((entry) => ({ ...auditRow(entry), createdAt })))
    .execute();
}

export type { AuditRecord };

/** A subject's changes, newest first. */
export async function auditTrail(subjectType: AuditSubject, subjectId: string, take = 50): Promise<AuditRecord[]> {
  const entries = await db.auditEntry.findMany({
    where: { subjectType, subjectId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
  });
  return entries.map(toRecord);
}

/** The latest changes of every subject of a type (a page's worth each), newest first, by subject id. */
export async function auditTrails(subjectType: AuditSubject, takeEach = 20): Promise<Map<string, AuditRecord[]>> {
  const entries = await db.auditEntry.findMany({
    where: { subjectType },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 500,
  });
  const trails = new Map<string, AuditRecord[]>();
  for (const entry of entries) {
    const trail = trails.get(entry.subjectId) ?? [];
    if (trail.length < takeEach) trail.push(toRecord(entry));
    trails.set(entry.subjectId, trail);
  }
  return trails;
}

function toRecord(entry: { actorEmail: string; action: string; createdAt: Date; before: string | null; after: string | null }): AuditRecord {
  return {
    actorEmail: entry.actorEmail,
    action: entry.action,
    at: entry.createdAt.toISOString(),
    before: entry.before === null ? null : (JSON.parse(entry.before) as unknown),
    after: entry.after === null ? null : (JSON.parse(entry.after) as unknown),
  };
}
