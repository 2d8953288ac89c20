import { calendarDateOf, deliveryWhen } from "~/lib/delivery-schedule";
import { calendarDay } from "~/models/delivery-schedule.server";
import { customerDetailsOf, shippingSelect } from "~/lib/shipping-fields";
import { z } from "zod";
import { lineTotalCents } from "~/models/pricing.server";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "~/generated/kysely/database";
import { db, inTransaction, instant, sqlDb, sqlIn } from "~/utils/db.server";
import { orderStatusEmail } from "~/services/emails.server";
import { type Prisma } from "~/generated/prisma/client";
import { canonicalMailbox, mailboxDomain } from "~/lib/email";
import { phoneKey } from "~/lib/phone";
import { namePrefixPairs } from "~/lib/name-search";
import { initial, maskEmail } from "~/lib/masking";
import { centsToDollars } from "~/lib/money";
import {
  ORDERS_PAGE_SIZE,
  ORDER_LIST_DEPTH,
  ORDER_STATUSES,
  GIVEN_UP_PAYMENT_STATUSES,
  ORDER_PAYMENT_FILTERS,
  shortOrderId,
  type OrderPaymentFilter,
  type PaymentStatus,
  type CustomerDetails,
  type DashboardStats,
  type MaskedOrder,
  type MaskedOrderWithHistory,
  type FulfilmentStatus,
  type RefundRefusalView,
  type TrackingView,
} from "~/lib/orders";
import { refundableLines, storedLines, type RefundRefusal } from "~/models/refunds.server";
import { enqueueEmails } from "~/services/outbox.server";
import { auditTrail, recordAudit } from "~/models/audit.server";
import { paymentMismatchOf } from "~/models/orders.server";
import { dailySales, paidOrderCount } from "~/models/daily-sales.server";
import { trackingUrl, type Carrier } from "~/lib/tracking";
import { shopSettings } from "~/models/catalog.server";

/**
 * The operator's view of orders (requirements §6-§7): customer data is masked here,
 * on the server: name as initials, email as first letter + asterisks +
 * domain, location as city and state. Full details go only to the
 * fulfilment email.
 */

/** What every list of orders takes: its page, where it starts, its fulfilment status, the search and the sort. */
const orderListFields = {
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(ORDERS_PAGE_SIZE),
  /**
   * Where the list starts (decision 067): orders placed at or before this
   * moment (newest-first and total sorts), or at or after it (oldest
   * first). The indexes seek to it, so every order is as near as the first page.
   */
  from: z.string().datetime({ offset: true, message: "must be a date and time, e.g. 2026-11-01T00:00:00Z" }).optional(),
  status: z.enum(ORDER_STATUSES).nullable().optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["date_desc", "date_asc", "total_desc", "total_asc"]).default("date_desc"),
  /** Only the orders to be delivered on this day (decision 100), "YYYY-MM-DD". */
  deliveryDate: calendarDay.optional(),
};

/** A page within ORDER_LIST_DEPTH orders, or the way to go deeper. */
const withinDepth = (query: { page: number; pageSize: number }) => (query.page - 1) * query.pageSize < ORDER_LIST_DEPTH;
const tooDeep = {
  path: ["page"],
  message: `goes deeper than ${ORDER_LIST_DEPTH.toLocaleString("en-US")} orders: give \`from\` (a date and time) to start the list at older orders`,
};

export const ordersQuerySchema = z
  .object({
    ...orderListFields,
    /** Which orders by their payment (ORDER_PAYMENT_FILTERS): every order that was paid unless narrowed. */
    payment: z.enum(ORDER_PAYMENT_FILTERS).default("all"),
    /** Every row whatever its payment, open and given-up checkouts too: the owner's (as get-given-up-checkouts is). */
    includeUnpaid: z.boolean().default(false),
  })
  .strict()
  .refine(withinDepth, tooDeep);

/** The checkouts given up unpaid (get-given-up-checkouts): the same list, with no payment to choose. */
export const givenUpQuerySchema = z.object(orderListFields).strict().refine(withinDepth, tooDeep);

/** A list as listOrders reads it: get-orders' query, or get-given-up-checkouts' with the given-up checkouts as its payment. */
export type OrdersQuery = Omit<z.infer<typeof ordersQuerySchema>, "payment"> & { payment: OrderPaymentFilter | "given-up" };

/**
 * Each payment filter as the payment statuses it reads, each with what else
 * its orders hold: one range of an index that leads with the status
 * (migrations 004 and 023), so that a list of several is read as ranges
 * merged in the sort's order, never as every matching row sorted.
 */
type PaymentRange = { status: PaymentStatus; refunded?: "nothing" | "part" };
const PAYMENT_RANGES: Record<OrdersQuery["payment"], PaymentRange[]> = {
  all: [{ status: "paid" }, { status: "refunded" }],
  paid: [{ status: "paid", refunded: "nothing" }],
  "part-refunded": [{ status: "paid", refunded: "part" }],
  refunded: [{ status: "refunded" }],
  "given-up": GIVEN_UP_PAYMENT_STATUSES.map((status) => ({ status })),
};

const orderSelect = {
  id: true,
  status: true,
  paymentStatus: true,
  createdAt: true,
  totalCents: true,
  email: true,
  firstName: true,
  lastName: true,
  city: true,
  state: true,
  chefNotified: true,
  preparingSent: true,
  shippedSent: true,
  deliveredSent: true,
  carrier: true,
  trackingNumber: true,
  refundedCents: true,
  refundReason: true,
  refundedBy: true,
  refundedAt: true,
  refundRequestedAt: true,
  refundRequestedBy: true,
  deliveryDate: true,
  deliverySlot: true,
  deliverySlotLabel: true,
  items: { select: { id: true, productId: true, name: true, unitPriceCents: true, quantity: true }, orderBy: { id: "asc" } },
} satisfies Prisma.OrderSelect;

type OrderRow = Prisma.OrderGetPayload<{ select: typeof orderSelect }>;

/** The spec's admin order (§3), masked. Money in dollars as the spec's client reads it, and in cents. */
function maskOrder(order: OrderRow): MaskedOrder {
  return {
    id: order.id,
    status: order.status,
    payment_status: order.paymentStatus,
    created_at: order.createdAt.toISOString(),
    total: centsToDollars(order.totalCents),
    total_cents: order.totalCents,
    items: order.items.map((item) => ({
      product: { id: item.productId, name: item.name, price: centsToDollars(item.unitPriceCents) },
      quantity: item.quantity,
      line_total_cents: lineTotalCents(item.unitPriceCents, item.quantity),
    })),
    customer_email: maskEmail(order.email),
    shipping_info: {
      firstName: initial(order.firstName),
      lastName: initial(order.lastName),
      city: order.city,
      state: order.state,
    },
    chef_notified: order.chefNotified,
    preparing_sent: order.preparingSent,
    shipped_sent: order.shippedSent,
    delivered_sent: order.deliveredSent,
    tracking:
      order.carrier || order.trackingNumber
        ? { carrier: order.carrier, number: order.trackingNumber, url: trackingUrl(order.carrier, order.trackingNumber) }
        : null,
    refund:
      order.paymentStatus === "refunded" && order.refundedAt
        ? {
            amount_cents: order.refundedCents ?? order.totalCents,
            reason: order.refundReason,
            refunded_by: order.refundedBy,
            refunded_at: order.refundedAt.toISOString(),
          }
        : null,
    refunded_cents: order.refundedCents ?? 0,
    refund_pending:
      order.paymentStatus === "paid" && order.refundRequestedAt
        ? { requested_by: order.refundRequestedBy, requested_at: order.refundRequestedAt.toISOString(), reason: order.refundReason }
        : null,
    delivery_date: order.deliveryDate ? calendarDateOf(order.deliveryDate) : null,
    delivery_slot: order.deliverySlot,
    delivery_slot_label: order.deliverySlotLabel,
  };
}

/** A delivery-day audit entry's side in words ("Thursday, December 10, 9am–12pm"), or null for none. */
function deliveryAuditWhen(value: unknown) {
  const parsed = z.object({ deliveryDate: z.string().nullable(), deliverySlotLabel: z.string().nullable() }).safeParse(value);
  return parsed.success && parsed.data.deliveryDate ? deliveryWhen(parsed.data.deliveryDate, parsed.data.deliverySlotLabel) : null;
}

/** What a search term can be; a term may be several at once (any of them matches). */
type SearchShape =
  | { mailbox: string }
  | { phoneDigits: string }
  | { idPrefix: string }
  | { emailDomain: string }
  /** Each word the start of the first or the last name. */
  | { nameWords: string[] };

/**
 * What the operator's search box finds, for owners and staff alike (the rows
 * stay masked): a whole email address, in any spelling of the same mailbox
 * ("Maya.Lopez+treats@GoogleMail.com" finds mayalopez@gmail.com's orders); an
 * email domain ("example.com", "@example.com"); a phone number typed any way
 * (its last ten digits); an order id's first characters; a name, each word
 * the start of the first or the last name ("maya", "Maya Lo"). A term may be
 * several of these at once ("abe" is a name and an id prefix): it finds
 * either; none (an empty list) finds nothing. Each shape lets only its own
 * characters through, so none of LIKE's wildcards (% and _) reaches a query.
 * Read once here; searchSql says it in SQL.
 */
function searchShapes(q: string): SearchShape[] {
  const term = q.toLowerCase();
  if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(term)) return [{ mailbox: canonicalMailbox(term) }];
  const phone = /^[0-9+()\-.\s]+$/.test(term) ? phoneKey(term) : null;
  if (phone) return /^[0-9a-f-]+$/.test(term) ? [{ phoneDigits: phone }, { idPrefix: term }] : [{ phoneDigits: phone }];
  if (term.includes(".") || term.startsWith("@")) {
    const domain = term.replace(/^@/, "");
    // Whole and indexed: the domain stored with each order is its canonical
    // mailbox's, lower case, with googlemail.com folded into gmail.com.
    return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? [{ emailDomain: mailboxDomain(`x@${domain}`) }] : [];
  }
  const shapes: SearchShape[] = [];
  if (/^[0-9a-f-]+$/.test(term)) shapes.push({ idPrefix: term });
  // Each word read as a name is from its first letter or digit: "🍦Lopez" is "lopez", and a word of emoji alone says
  // nothing of the name. A word that starts with a digit ("7a", an id's start) is no name: nameKey would make it "a".
  const words = term
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+/u, ""))
    .filter((word) => word !== "");
  if (words.length > 0 && words.every((word) => /^[\p{L}'-]+$/u.test(word))) shapes.push({ nameWords: words });
  return shapes;
}

/** A condition on an order's row, as Kysely writes it: typed by the schema. */
type OrderCondition = (eb: ExpressionBuilder<DB, "Order">) => Expression<SqlBool>;

/** A name (first or last) whose letters start with `word` (a nameKey), in any case: in the form migration 029's and 030's indexes serve. */
const nameStartsWith =
  (column: "firstName" | "lastName", word: string): OrderCondition =>
  (eb) =>
    eb(eb.fn<string>("name_key", [eb.ref(column)]), "like", eb.fn<string>("lower", [eb.val(`${word}%`)]));

/** One search shape as SQL. */
function shapeSql(shape: SearchShape): OrderCondition {
  if ("mailbox" in shape) return (eb) => eb("mailbox", "=", shape.mailbox);
  if ("phoneDigits" in shape) return (eb) => eb("phoneDigits", "=", shape.phoneDigits);
  if ("idPrefix" in shape) return (eb) => eb("id", "like", `${shape.idPrefix}%`);
  if ("emailDomain" in shape) return (eb) => eb("emailDomain", "=", shape.emailDomain);
  return (eb) => eb.and(shape.nameWords.map((word) => eb.or([nameStartsWith("firstName", word)(eb), nameStartsWith("lastName", word)(eb)])));
}

/**
 * The search as SQL. An id prefix is LIKE 'prefix%', which migration 004's
 * text_pattern_ops index serves; a name, name_key(name) LIKE 'word%' on either
 * name, which migration 029's and 030's indexes serve.
 */
function searchSql(q: string): OrderCondition {
  const shapes = searchShapes(q).map(shapeSql);
  return (eb) => (shapes.length === 0 ? eb.lit(false) : eb.or(shapes.map((shape) => shape(eb))));
}

/**
 * Conditions that between them hold every order a search with a name can
 * match, each one range of an index: for a name, each pair of a first-name
 * start and a last-name start its words can be read as (namePrefixPairs:
 * "olivia martinez" is Olivia Martinez or Martinez Olivia), read through
 * migration 029's index keyed on both names; any other shape of the term as
 * itself ("abe" is an id prefix too).
 */
function nameSearchParts(q: string): OrderCondition[] {
  return searchShapes(q).flatMap((shape): OrderCondition[] => {
    if (!("nameWords" in shape)) return [shapeSql(shape)];
    return namePrefixPairs(shape.nameWords).map(({ first, last }) => (eb) => {
      const starts = [first ? nameStartsWith("firstName", first) : null, last ? nameStartsWith("lastName", last) : null];
      return eb.and(starts.filter((start) => start !== null).map((start) => start(eb)));
    });
  });
}

/** One payment range as SQL: the status, and what else its orders hold. */
function rangeSql(range: PaymentRange): OrderCondition {
  // Written into the statement, not sent as a parameter: PostgreSQL's plan
  // for parameters it has not seen cannot use a partial index (migration 023's).
  const status = sql.lit(range.status);
  return (eb) =>
    eb.and([
      eb("paymentStatus", "=", status),
      ...(range.refunded === "nothing" ? [eb.or([eb("refundedCents", "is", null), eb("refundedCents", "=", eb.lit(0))])] : []),
      ...(range.refunded === "part" ? [eb("refundedCents", ">", eb.lit(0))] : []),
    ]);
}

/** The payment ranges a list reads; none (every row, whatever its payment) with includeUnpaid. */
const rangesOf = (query: OrdersQuery): PaymentRange[] => (query.includeUnpaid ? [] : PAYMENT_RANGES[query.payment]);

/** The list's filters but its payment, as one SQL condition: status, `from`, and the search. */
function listConditions(query: OrdersQuery, from: Date | null): OrderCondition {
  const conditions: OrderCondition[] = [];
  const status = query.status;
  if (status) conditions.push((eb) => eb("status", "=", status));
  if (from) conditions.push((eb) => eb("createdAt", query.sort === "date_asc" ? ">=" : "<=", instant(from)));
  if (query.q) conditions.push(searchSql(query.q));
  const day = query.deliveryDate;
  if (day) conditions.push((eb) => eb("deliveryDate", "=", sql<Date>`${day}::date`));
  return (eb) => eb.and(conditions.map((condition) => condition(eb)));
}

/** The filters, and the order in any of the payment ranges. */
const inRanges =
  (where: OrderCondition, ranges: PaymentRange[]): OrderCondition =>
  (eb) =>
    ranges.length === 0 ? where(eb) : eb.and([where(eb), eb.or(ranges.map((range) => rangeSql(range)(eb)))]);

/** Each sort's columns, in order; every sort ends with the newest first among equals. */
const ORDER_BY: Record<OrdersQuery["sort"], ["createdAt" | "totalCents", "asc" | "desc"][]> = {
  date_desc: [["createdAt", "desc"]],
  date_asc: [["createdAt", "asc"]],
  total_desc: [
    ["totalCents", "desc"],
    ["createdAt", "desc"],
  ],
  total_asc: [
    ["totalCents", "asc"],
    ["createdAt", "desc"],
  ],
};

/** The sort's ORDER BY, on "Order" or on rows gathered from it. */
const sortedBy = (sort: OrdersQuery["sort"]) => sql.join(ORDER_BY[sort].map(([column, direction]) => sql`${sql.ref(column)} ${sql.raw(direction)}`));

/**
 * How many orders the list's filters match, counted up to ORDER_LIST_DEPTH + 1
 * (Prisma's `count({ take })` reads the matching ids into the server first:
 * 70 ms for 10,001 of a million orders against 6 ms here).
 */
async function countOrders(where: OrderCondition) {
  const matching = sqlDb()
    .selectFrom("Order")
    .select(sql<number>`1`.as("one"))
    .where(where)
    .limit(ORDER_LIST_DEPTH + 1);
  const row = await sqlDb()
    .selectFrom(matching.as("matching"))
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirst();
  return row?.count ?? 0;
}

/**
 * A page's ids, read in the sort's order through the index that serves the
 * filters, stopping at the page. Several payment ranges (every order that was
 * paid: the paid and the refunded) are each read in that order, as far as
 * the page goes, and merged (PostgreSQL's Merge Append). Read as one IN of
 * the statuses, or as a UNION ALL with the LIMIT only outside it, the planner
 * sorted every matching row: 190 ms at a million orders, against 0.1 ms for
 * the first page this way and 4 ms at 10,000 orders deep.
 */
async function pageIds(where: OrderCondition, ranges: PaymentRange[], query: OrdersQuery) {
  const offset = (query.page - 1) * query.pageSize;
  if (ranges.length <= 1) {
    const rows = await sqlDb()
      .selectFrom("Order")
      .select("id")
      .where(inRanges(where, ranges))
      .orderBy(sortedBy(query.sort))
      .limit(query.pageSize)
      .offset(offset)
      .execute();
    return rows.map((row) => row.id);
  }
  const eachRange = ranges.map(
    (range) =>
      sql`(${sqlDb()
        .selectFrom("Order")
        .select(["id", "createdAt", "totalCents"])
        .where((eb) => eb.and([where(eb), rangeSql(range)(eb)]))
        .orderBy(sortedBy(query.sort))
        .limit(offset + query.pageSize)})`,
  );
  const rows = await sqlDb()
    .selectFrom(sql<{ id: string; createdAt: Date; totalCents: number }>`(${sql.join(eachRange, sql` UNION ALL `)})`.as("ranges"))
    .select("id")
    .orderBy(sortedBy(query.sort))
    .limit(query.pageSize)
    .offset(offset)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Every order that was paid, exactly: the paid ones from the daily totals
 * (a row a day), and the refunded ones from their index (a refund is rare).
 */
async function everyTakenOrderCount() {
  const [paid, refunded] = await Promise.all([
    paidOrderCount(),
    sqlDb()
      .selectFrom("Order")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("paymentStatus", "=", "refunded")
      .executeTakeFirst(),
  ]);
  return paid + Number(refunded?.count ?? 0);
}

/**
 * A name search: its matches gathered first (up to ORDER_LIST_DEPTH + 1),
 * counted, and, when that is all of them, sorted for the page in the same
 * statement. They are gathered part by part (nameSearchParts), each part
 * leaving out what an earlier one found, so that each is read from its own
 * index (migration 029's or 030's, from its entries alone), and the LIMIT stops
 * the reading once enough are found. Read in date order instead, the planner
 * reads orders until enough match: "olivia martinez" (857 of a million
 * orders) took 238 ms that way. A common name (more matches than the depth)
 * has its page read in date order, where matches come soon.
 */
async function nameSearchPage(where: OrderCondition, ranges: PaymentRange[], q: string, query: OrdersQuery) {
  const [first, ...others] = nameSearchParts(q).map((part, index, parts) =>
    sqlDb()
      .selectFrom("Order")
      .select(["id", "createdAt", "totalCents"])
      .where((eb) => eb.and([inRanges(where, ranges)(eb), part(eb), ...parts.slice(0, index).map((before) => eb(before(eb), "is not", eb.lit(true)))])),
  );
  // Words no order's two names can hold between them ("maria de la"): nothing to read.
  if (!first) return { counted: 0, ids: [] };
  const gathered = await sqlDb()
    .with(
      (cte) => cte("matching").materialized(),
      () => others.reduce((union, part) => union.unionAll(part), first).limit(ORDER_LIST_DEPTH + 1),
    )
    .selectNoFrom((eb) => [
      eb
        .selectFrom("matching")
        .select((matching) => matching.fn.countAll<number>().as("count"))
        .as("count"),
      sql<string[]>`ARRAY(${eb
        .selectFrom("matching")
        .select("id")
        .orderBy(sortedBy(query.sort))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)})`.as("ids"),
    ])
    .executeTakeFirst();
  const counted = gathered?.count ?? 0;
  return { counted, ids: counted <= ORDER_LIST_DEPTH ? (gathered?.ids ?? []) : await pageIds(where, ranges, query) };
}

/**
 * A page of orders, newest first unless sorted otherwise, from `from` when
 * given. Every filter and sort the admin offers is served by an index
 * (schema.prisma, decision 018). Pages go ORDER_LIST_DEPTH orders deep at
 * most, and a count stops there ("10,000+", `totalCapped`): an exact count of
 * a large filter reads every matching index entry (217 ms for "delivered" at a
 * million orders), and a deep OFFSET skips as many (decision 067). The list
 * as it first opens (every order that was paid) keeps its exact count from the daily
 * totals. The page's ids come first, read from the index alone; then only
 * those orders' rows (reading whole rows, PostgreSQL fetches each one the
 * OFFSET skips).
 */
export async function listOrders(query: OrdersQuery) {
  const from = query.from ? new Date(query.from) : null;
  const where = listConditions(query, from);
  const ranges = rangesOf(query);
  // Every order that was paid, unfiltered (the list as it first opens): counted exactly, from the daily totals.
  const everyOrder = !query.includeUnpaid && query.payment === "all" && !query.status && !query.q && !from && !query.deliveryDate;
  const nameSearch = query.q && searchShapes(query.q).some((shape) => "nameWords" in shape) ? query.q : null;
  const { ids, counted } = nameSearch
    ? await nameSearchPage(where, ranges, nameSearch, query)
    : await Promise.all([pageIds(where, ranges, query), everyOrder ? everyTakenOrderCount() : countOrders(inRanges(where, ranges))]).then(([ids, counted]) => ({
        ids,
        counted,
      }));
  const rows = await db.order.findMany({ where: { id: { in: ids } }, select: orderSelect });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const orders = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [maskOrder(row)] : [];
  });
  const totalCapped = !everyOrder && counted > ORDER_LIST_DEPTH;
  return { orders, total: totalCapped ? ORDER_LIST_DEPTH : counted, totalCapped };
}

export async function getOrderWithHistory(orderId: string): Promise<MaskedOrderWithHistory | null> {
  const [order, trail] = await Promise.all([
    db.order.findUnique({
      where: { id: orderId },
      select: {
        ...orderSelect,
        statusChanges: { orderBy: { changedAt: "asc" }, select: { fromStatus: true, toStatus: true, changedBy: true, changedAt: true } },
        subtotalCents: true,
        discountCents: true,
        refunds: {
          orderBy: { createdAt: "asc" },
          select: { amountCents: true, reason: true, refundedBy: true, createdAt: true, lines: true, restocked: true },
        },
      },
    }),
    auditTrail("order", orderId),
  ]);
  if (!order) return null;
  const names = new Map(order.items.map((item) => [item.id, item.name]));
  return {
    ...maskOrder(order),
    refunds: order.refunds.map((refund) => ({
      amount_cents: refund.amountCents,
      reason: refund.reason,
      refunded_by: refund.refundedBy,
      refunded_at: refund.createdAt.toISOString(),
      lines: storedLines(refund.lines).map((line) => ({ name: names.get(line.itemId) ?? "Item", quantity: line.quantity })),
      restocked: refund.restocked,
    })),
    refund_left_cents: order.totalCents - (order.refundedCents ?? 0),
    refundable_lines: refundableLines(order).map((line) => ({
      item_id: line.itemId,
      name: line.name,
      quantity: line.quantity,
      refundable_quantity: line.refundableQuantity,
    })),
    history: order.statusChanges.map((change) => ({
      from: change.fromStatus,
      to: change.toStatus,
      changed_by: change.changedBy,
      changed_at: change.changedAt.toISOString(),
    })),
    tracking_history: trail
      .filter((entry) => entry.action === "order.tracking")
      .reverse()
      .map((entry) => ({
        from: trackingView(entry.before as TrackingAudit | null),
        to: trackingView(entry.after as TrackingAudit | null),
        changed_by: entry.actorEmail,
        changed_at: entry.at,
      })),
    delivery_history: trail
      .filter((entry) => entry.action === "order.delivery-day")
      .reverse()
      .map((entry) => ({
        from: deliveryAuditWhen(entry.before),
        to: deliveryAuditWhen(entry.after),
        changed_by: entry.actorEmail,
        changed_at: entry.at,
      })),
    details_shown: trail
      .filter((entry) => entry.action === "order.customer-details")
      .reverse()
      .map((entry) => ({ shown_by: entry.actorEmail, shown_at: entry.at })),
    payment_mismatches: trail
      .filter((entry) => entry.action === "order.payment-mismatch")
      .reverse()
      .flatMap((entry) => {
        const mismatch = paymentMismatchOf(entry);
        return mismatch ? [{ paid_cents: mismatch.paidCents, total_cents: mismatch.totalCents, session_id: mismatch.sessionId, noticed_at: entry.at }] : [];
      }),
    refund_refusals: trail
      .filter((entry) => entry.action === "order.refund-refused")
      .reverse()
      .map((entry) => refundRefusalView(entry.before as RefundRequestAudit | null, entry.after as { refused?: RefundRefusal } | null, entry.at)),
  };
}

/**
 * An order's full customer details for the owner, recorded in the order's
 * history (who, when) in the same transaction: a look at a customer's
 * address is never without its record. Null for an unknown order.
 */
export async function showCustomerDetails(actorEmail: string, orderId: string): Promise<CustomerDetails | null> {
  return inTransaction(async (tx) => {
    const details = await tx.order.findUnique({
      where: { id: orderId },
      select: shippingSelect,
    });
    if (!details) return null;
    await recordAudit(tx, { actorEmail, action: "order.customer-details", subjectType: "order", subjectId: orderId, before: null, after: null });
    return customerDetailsOf(details);
  });
}

/** What a refused refund's audit record holds before: the request Stripe refused. */
type RefundRequestAudit = { refundRequestedBy: string | null; refundReason: string | null };

const refundRefusalView = (request: RefundRequestAudit | null, after: { refused?: RefundRefusal } | null, at: string): RefundRefusalView => ({
  requested_by: request?.refundRequestedBy ?? null,
  reason: request?.refundReason ?? null,
  refusal: [after?.refused?.message, after?.refused?.code ? `(${after.refused.code})` : null].filter(Boolean).join(" ") || "Stripe refused the refund.",
  refused_at: at,
});

/** What a tracking change's audit record holds, before and after. */
type TrackingAudit = { carrier: string | null; trackingNumber: string | null };

const trackingView = (audit: TrackingAudit | null): TrackingView => ({
  carrier: audit?.carrier ?? null,
  number: audit?.trackingNumber ?? null,
});

export type StatusUpdate = { ok: true; message: string } | { ok: false; reason: "not-found" | "not-paid" | "refunded" | "cancelled" };

/** Given only with the "shipped" status (the route refuses it with any other). */
export type Tracking = { carrier: Carrier | null; trackingNumber: string | null };

/**
 * Sets an order's fulfilment status (any to any, requirements §4), records who did it,
 * and queues the customer's status email in the same transaction. "Shipped"
 * may carry the carrier and tracking number, which the email then gives; for
 * an order already shipped they only correct its tracking (no new email).
 * Setting or correcting tracking writes an audit record (who, when, before,
 * after) in the same transaction; tracking given as it is stored changes nothing.
 */
export async function updateOrderStatus(
  orderId: string,
  newStatus: FulfilmentStatus,
  changedBy: string,
  tracking: Tracking | null = null,
): Promise<StatusUpdate> {
  const settings = await shopSettings();
  return inTransaction(async (tx) => {
    const order = await tx.order.findUnique({ where: { id: orderId }, include: { items: true } });
    if (!order) return { ok: false, reason: "not-found" };
    // Cancelled by the owner (decision 064): no longer moved along, and its customer was told.
    if (order.status === "cancelled") return { ok: false, reason: "cancelled" };
    // Its customer has their money back, and must not be told it is on its way.
    if (order.paymentStatus === "refunded") return { ok: false, reason: "refunded" };
    // An unpaid checkout is not an order to fulfil, and its customer must not be told it shipped.
    if (order.paymentStatus !== "paid") return { ok: false, reason: "not-paid" };
    const short = shortOrderId(order.id);
    const before: TrackingAudit = { carrier: order.carrier, trackingNumber: order.trackingNumber };
    const after: TrackingAudit | null = tracking && newStatus === "shipped" ? { carrier: tracking.carrier, trackingNumber: tracking.trackingNumber } : null;
    const trackingChanged = after !== null && (after.carrier !== before.carrier || after.trackingNumber !== before.trackingNumber);
    const trackingData = trackingChanged ? after : {};
    const auditTracking = () => recordAudit(tx, { actorEmail: changedBy, action: "order.tracking", subjectType: "order", subjectId: orderId, before, after });
    if (order.status === newStatus) {
      if (!trackingChanged) return { ok: true, message: `Order ${short} is already ${newStatus}.` };
      // Conditional on the tracking just read, so two corrections at once each record what they replaced.
      const { count } = await tx.order.updateMany({ where: { id: orderId, status: newStatus, ...before }, data: trackingData });
      if (count === 0) return { ok: true, message: `Order ${short} was just changed by someone else; refresh to see it.` };
      await auditTracking();
      return { ok: true, message: `Tracking for order ${short} updated.` };
    }
    // Conditional on the status just read, so two operators cannot both make this change.
    const { count } = await tx.order.updateMany({ where: { id: orderId, status: order.status }, data: { status: newStatus, ...trackingData } });
    if (count === 0) return { ok: true, message: `Order ${short} was just changed by someone else; refresh to see it.` };
    await tx.orderStatusChange.create({ data: { orderId, fromStatus: order.status, toStatus: newStatus, changedBy } });
    if (trackingChanged) await auditTracking();
    if (newStatus !== "pending") await enqueueEmails(sqlIn(tx), [await orderStatusEmail({ ...order, ...trackingData }, newStatus, settings)]);
    return { ok: true, message: `Order ${short} is now ${newStatus}.` };
  });
}

/**
 * Today's orders and revenue, open orders, and paid orders per day for the
 * last 30 Los Angeles days: 30 rows of daily totals (kept as payments change,
 * app/models/daily-sales.server.ts) and one indexed count.
 */
export async function dashboardStats(now = new Date()): Promise<DashboardStats> {
  const [days, openOrders] = await Promise.all([
    dailySales(now, 30),
    db.order.count({ where: { paymentStatus: "paid", status: { in: ["pending", "preparing"] } } }),
  ]);
  const today = days.at(-1)!;
  return {
    today: { orders: today.orders, revenue: centsToDollars(today.revenueCents), revenueCents: today.revenueCents },
    openOrders,
    last30Days: days.map(({ day, orders, revenueCents }) => ({ date: day, orders, revenue: centsToDollars(revenueCents), revenueCents })),
    last30DaysRevenueCents: days.reduce((sum, day) => sum + day.revenueCents, 0),
  };
}
