import { z } from "zod";
import type { Prisma } from "~/generated/prisma/client";
import { db } from "~/utils/db.server";
import { OWNER_LIST_PAGE_SIZE, SUBSCRIBER_STATUSES, type InquiryRow, type SubscriberRow } from "~/lib/owner-lists";

/**
 * The owner's lists (decision 022): newsletter subscribers (unsubscribed ones
 * marked) and partnership inquiries, searchable and paged, and each as a CSV
 * file streamed a batch at a time, so an export of any size holds one batch
 * in memory.
 */

const pageFields = {
  page: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(OWNER_LIST_PAGE_SIZE),
  q: z.string().trim().max(100).optional(),
};

export const subscribersQuerySchema = z.object({ ...pageFields, status: z.enum(SUBSCRIBER_STATUSES).default("all") }).strict();
export const inquiriesQuerySchema = z.object(pageFields).strict();
/** An export takes the list's filters, without paging. */
export const subscribersExportSchema = subscribersQuerySchema.omit({ page: true, pageSize: true });
export const inquiriesExportSchema = inquiriesQuerySchema.omit({ page: true, pageSize: true });

export type SubscribersQuery = z.infer<typeof subscribersQuerySchema>;
export type InquiriesQuery = z.infer<typeof inquiriesQuerySchema>;

/** A case-insensitive "contains" (ILIKE). */
function containing(term: string): Prisma.StringFilter {
  return { contains: term, mode: "insensitive" };
}

function subscribersWhere({ q, status }: { q?: string; status: SubscribersQuery["status"] }): Prisma.SubscriberWhereInput {
  return {
    ...(q ? { email: containing(q) } : {}),
    ...(status === "subscribed" ? { unsubscribedAt: null } : status === "unsubscribed" ? { unsubscribedAt: { not: null } } : {}),
  };
}

function inquiriesWhere({ q }: { q?: string }): Prisma.PartnershipInquiryWhereInput {
  if (!q) return {};
  return { OR: [{ name: containing(q) }, { email: containing(q) }, { business: containing(q) }, { message: containing(q) }] };
}

const subscriberSelect = { id: true, email: true, createdAt: true, unsubscribedAt: true } satisfies Prisma.SubscriberSelect;
const inquirySelect = { id: true, name: true, email: true, business: true, message: true, createdAt: true } satisfies Prisma.PartnershipInquirySelect;

function subscriberRow(row: Prisma.SubscriberGetPayload<{ select: typeof subscriberSelect }>): SubscriberRow {
  return { id: row.id, email: row.email, subscribedAt: row.createdAt.toISOString(), unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null };
}

function inquiryRow(row: Prisma.PartnershipInquiryGetPayload<{ select: typeof inquirySelect }>): InquiryRow {
  return { id: row.id, name: row.name, email: row.email, business: row.business, message: row.message, receivedAt: row.createdAt.toISOString() };
}

/** Newest first; the id breaks ties so pages never repeat or skip a row. */
const newestFirst = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** The rows of one page: what Prisma's findMany takes besides the filter. */
type PageWindow = { skip: number; take: number };

/** One page of a list and how many rows match in all. */
async function pageOf<Row>({ page, pageSize }: { page: number; pageSize: number }, read: (window: PageWindow) => Promise<Row[]>, count: () => Promise<number>) {
  const [rows, total] = await Promise.all([read({ skip: (page - 1) * pageSize, take: pageSize }), count()]);
  return { rows, total, page, pageSize };
}

export async function listSubscribers(query: SubscribersQuery) {
  const where = subscribersWhere(query);
  const read = (window: PageWindow) => db.subscriber.findMany({ where, select: subscriberSelect, orderBy: newestFirst, ...window });
  const { rows, ...paging } = await pageOf(query, read, () => db.subscriber.count({ where }));
  return { subscribers: rows.map(subscriberRow), ...paging };
}

export async function listInquiries(query: InquiriesQuery) {
  const where = inquiriesWhere(query);
  const read = (window: PageWindow) => db.partnershipInquiry.findMany({ where, select: inquirySelect, orderBy: newestFirst, ...window });
  const { rows, ...paging } = await pageOf(query, read, () => db.partnershipInquiry.count({ where }));
  return { inquiries: rows.map(inquiryRow), ...paging };
}

// --- CSV ------------------------------------------------------------------

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line
 * break. A field a spreadsheet would run as a formula (=, +, -, @, tab, CR)
 * is prefixed with an apostrophe, so an address typed as "=HYPERLINK(…)" by
 * a visitor stays text when the owner opens the file.
 */
export function csvField(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(fields: (string | null)[]) {
  return `${fields.map(csvField).join(",")}\r\n`;
}

const BATCH = 500;

/**
 * A stream of CSV lines: the header, then the rows a batch at a time, paged
 * by a keyset on (createdAt, id) so a row written meanwhile moves no page.
 */
function csvStream<Row extends { id: string; createdAt: Date }>(
  header: string[],
  fetchBatch: (after: { createdAt: Date; id: string } | null, take: number) => Promise<Row[]>,
  toFields: (row: Row) => (string | null)[],
) {
  const encoder = new TextEncoder();
  let after: { createdAt: Date; id: string } | null = null;
  let sentHeader = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentHeader) {
        sentHeader = true;
        // A byte-order mark: Excel then reads the file as UTF-8.
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
        return;
      }
      if (done) return;
      const rows = await fetchBatch(after, BATCH);
      if (rows.length > 0) {
        controller.enqueue(encoder.encode(rows.map((row) => csvLine(toFields(row))).join("")));
        const last = rows[rows.length - 1]!;
        after = { createdAt: last.createdAt, id: last.id };
      }
      if (rows.length < BATCH) {
        done = true;
        controller.close();
      }
    },
  });
}

/**
 * Rows older than `after` in newest-first order. The `lte` says again what
 * the OR implies, for PostgreSQL: it starts each batch's scan of the
 * ("createdAt", id) index where the last one stopped (migrations 025, 026),
 * so the whole export is one pass over the index, not a scan and sort a batch.
 */
function before(after: { createdAt: Date; id: string } | null) {
  return after
    ? { createdAt: { lte: after.createdAt }, OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
    : {};
}

export function subscribersCsv(filters: z.infer<typeof subscribersExportSchema>) {
  const where = subscribersWhere(filters);
  return csvStream(
    ["email", "subscribed_at", "unsubscribed_at", "status"],
    (after, take) => db.subscriber.findMany({ where: { AND: [where, before(after)] }, select: subscriberSelect, orderBy: newestFirst, take }),
    (row) => [row.email, row.createdAt.toISOString(), row.unsubscribedAt?.toISOString() ?? null, row.unsubscribedAt ? "unsubscribed" : "subscribed"],
  );
}

export function inquiriesCsv(filters: z.infer<typeof inquiriesExportSchema>) {
  const where = inquiriesWhere(filters);
  return csvStream(
    ["received_at", "name", "email", "business", "message"],
    (after, take) => db.partnershipInquiry.findMany({ where: { AND: [where, before(after)] }, select: inquirySelect, orderBy: newestFirst, take }),
    (row) => [row.createdAt.toISOString(), row.name, row.email, row.business, row.message],
  );
}
