import { z } from "zod";
import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from "kysely";
import type { DB } from "~/generated/kysely/database";
import { instant, sqlDb } from "~/utils/db.server";
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

/** `term` anywhere in a column, in any case: ILIKE with LIKE's own wildcards (%, _) and its escape taken as text. */
const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** Where a row stands in a list's order (newest first): its creation, then its id. */
type Keyset = { createdAt: Date; id: string };

/** The two lists' tables: each has ("createdAt", id) and its index. */
type ListTable = "Subscriber" | "PartnershipInquiry";

type ListCondition<Table extends ListTable> = (eb: ExpressionBuilder<DB, Table>) => Expression<SqlBool>;

function subscribersWhere({ q, status }: { q?: string; status: SubscribersQuery["status"] }): ListCondition<"Subscriber"> {
  return (eb) =>
    eb.and([
      ...(q ? [eb("email", "ilike", likeTerm(q))] : []),
      ...(status === "subscribed" ? [eb("unsubscribedAt", "is", null)] : status === "unsubscribed" ? [eb("unsubscribedAt", "is not", null)] : []),
    ]);
}

function inquiriesWhere({ q }: { q?: string }): ListCondition<"PartnershipInquiry"> {
  return (eb) => {
    if (!q) return eb.and([]);
    const term = likeTerm(q);
    return eb.or([eb("name", "ilike", term), eb("email", "ilike", term), eb("business", "ilike", term), eb("message", "ilike", term)]);
  };
}

/**
 * Through Kysely over node-pg (decision 068): an export's 100,000 rows cost
 * Prisma's engine most of a second to read back, node-pg a fraction.
 */
const subscribers = () => sqlDb().selectFrom("Subscriber").select(["id", "email", "createdAt", "unsubscribedAt", "source", "consentAt", "consentNote"]);
const inquiries = () => sqlDb().selectFrom("PartnershipInquiry").select(["id", "name", "email", "business", "message", "createdAt"]);

type SubscriberRecord = Awaited<ReturnType<ReturnType<typeof subscribers>["execute"]>>[number];
type InquiryRecord = Awaited<ReturnType<ReturnType<typeof inquiries>["execute"]>>[number];

function subscriberRow(row: SubscriberRecord): SubscriberRow {
  return {
    id: row.id,
    email: row.email,
    subscribedAt: row.createdAt.toISOString(),
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
    source: row.source,
    consentAt: row.consentAt.toISOString(),
    consentNote: row.consentNote,
  };
}

function inquiryRow(row: InquiryRecord): InquiryRow {
  return { id: row.id, name: row.name, email: row.email, business: row.business, message: row.message, receivedAt: row.createdAt.toISOString() };
}

/** How many rows match, read in the same statement shape as the page. */
async function countOf<Row>(query: SelectQueryBuilder<DB, ListTable, Row>) {
  const row = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function listSubscribers(query: SubscribersQuery) {
  const matching = subscribers().where(subscribersWhere(query));
  const [rows, total] = await Promise.all([pageOf(matching, query).execute(), countOf(matching)]);
  return { subscribers: rows.map(subscriberRow), total, page: query.page, pageSize: query.pageSize };
}

export async function listInquiries(query: InquiriesQuery) {
  const matching = inquiries().where(inquiriesWhere(query));
  const [rows, total] = await Promise.all([pageOf(matching, query).execute(), countOf(matching)]);
  return { inquiries: rows.map(inquiryRow), total, page: query.page, pageSize: query.pageSize };
}

/** A list's order, newest first: the ("createdAt", id) index of migrations 025 and 026, read backwards. */
const newestFirst = <Row extends Keyset>(query: SelectQueryBuilder<DB, ListTable, Row>) => query.orderBy("createdAt", "desc").orderBy("id", "desc");

/** A page of a list, newest first. */
function pageOf<Row extends Keyset>(query: SelectQueryBuilder<DB, ListTable, Row>, { page, pageSize }: { page: number; pageSize: number }) {
  return newestFirst(query)
    .offset((page - 1) * pageSize)
    .limit(pageSize);
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

const BATCH = 5_000;

/**
 * A stream of CSV lines: the header, then the rows a batch at a time, paged
 * by a keyset on (createdAt, id) so a row written meanwhile moves no page.
 */
function csvStream<Row extends { id: string; createdAt: Date }>(
  header: string[],
  fetchBatch: (after: Keyset | null, take: number) => Promise<Row[]>,
  toFields: (row: Row) => (string | null)[],
) {
  const encoder = new TextEncoder();
  let after: Keyset | null = null;
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
 * The next batch after `after`, newest first: ("createdAt", id) < the last
 * row's, as a row comparison, which PostgreSQL reads as one range of the
 * ("createdAt", id) index (migrations 025, 026), so the whole export is one
 * pass over the index, not a scan and sort a batch.
 */
function batchAfter<Row extends Keyset>(query: SelectQueryBuilder<DB, ListTable, Row>, after: Keyset | null, take: number) {
  const from = after ? query.where((eb) => eb(eb.refTuple("createdAt", "id"), "<", eb.tuple(instant(after.createdAt), after.id))) : query;
  return newestFirst(from).limit(take);
}

export function subscribersCsv(filters: z.infer<typeof subscribersExportSchema>) {
  const matching = subscribers().where(subscribersWhere(filters));
  return csvStream(
    ["email", "subscribed_at", "unsubscribed_at", "status", "source", "consented_at", "consent_note"],
    (after, take) => batchAfter(matching, after, take).execute(),
    (row) => [
      row.email,
      row.createdAt.toISOString(),
      row.unsubscribedAt?.toISOString() ?? null,
      row.unsubscribedAt ? "unsubscribed" : "subscribed",
      row.source,
      row.consentAt.toISOString(),
      row.consentNote,
    ],
  );
}

export function inquiriesCsv(filters: z.infer<typeof inquiriesExportSchema>) {
  const matching = inquiries().where(inquiriesWhere(filters));
  return csvStream(
    ["received_at", "name", "email", "business", "message"],
    (after, take) => batchAfter(matching, after, take).execute(),
    (row) => [row.createdAt.toISOString(), row.name, row.email, row.business, row.message],
  );
}
