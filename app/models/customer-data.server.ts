import { createHash } from "node:crypto";
import { canonicalMailbox, mailboxDomain } from "~/lib/email";
import { erasedShippingFields, shippingFields, type ErasedShippingField, type ShippingField } from "~/lib/shipping-fields";
import { shortOrderId, type StoredShipping } from "~/lib/orders";
import { recordAudit } from "~/models/audit.server";
import { geocoderCacheKey } from "~/services/geocoder.server";
import type { Prisma } from "~/generated/prisma/client";
import { db, inTransaction, sqlIn } from "~/utils/db.server";
import { withdrawCopies } from "~/models/campaigns.server";
import { env } from "~/utils/env.server";

/**
 * Customers' data rights and the shop's retention (issue 23, item 6; decision
 * 062). California's privacy law gives a customer the right to know what the
 * shop holds about them and to have it deleted; the owner answers such a
 * request with `exportCustomer` and `forgetCustomer`. A customer is a
 * mailbox: every spelling of the same address is the same person
 * (app/lib/email.ts). What the books need stays: amounts, dates, the items,
 * and the city, state and ZIP code (sales tax is owed where a sale is
 * delivered); names, the street, the phone, the email address and what the
 * emails said go. The audit log records each request under a hash of the
 * mailbox, never the address itself.
 */

/** Where a forgotten customer's orders and emails point: a domain that can never receive mail (RFC 2606). */
export const FORGOTTEN_DOMAIN = "forgotten.invalid";

/** A field's name in the export: firstName → first_name. */
type Snake<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : Name;
const snake = <Name extends string>(name: Name) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) as Snake<Name>;

/** An order's fields of the shipping form under the export's names (first_name, zip_code): every one is the customer's to know. */
function exportedShipping(order: StoredShipping) {
  // Built from the form's own list; the type says what that list makes (Object.fromEntries cannot).
  return Object.fromEntries(shippingFields.map((field) => [snake(field), order[field]])) as { [Field in ShippingField as Snake<Field>]: StoredShipping[Field] };
}

/**
 * What an order keeps of its customer once forgotten: nothing that names or
 * reaches them. Every field of the form it does not keep (shipping-fields.ts)
 * is emptied, so a field added to the form is erased without a change here;
 * one the database requires (a null it refuses) fails the typecheck.
 */
function forgottenOrder(orderId: string) {
  const email = `forgotten-${orderId.slice(0, 8)}@${FORGOTTEN_DOMAIN}`;
  const erased = Object.fromEntries(erasedShippingFields.map((field) => [field, null])) as Record<ErasedShippingField, null>;
  return {
    ...erased,
    email,
    mailbox: email,
    emailDomain: FORGOTTEN_DOMAIN,
    firstName: "Forgotten",
    lastName: "Customer",
    phoneDigits: null,
    address: "",
    // "CODE:mailbox": the mailbox is personal data; the code's one use per customer can no longer be told.
    firstOrderClaim: null,
  } satisfies Prisma.OrderUpdateInput;
}

/** The audit log's name for a customer: a hash of the mailbox, so the log shows a request was answered without keeping who made it. */
export const customerReference = (mailbox: string) => `mailbox:${createHash("sha256").update(mailbox).digest("hex").slice(0, 16)}`;

/** Rows whose address may be the mailbox: same domain (Gmail's two names alike), then compared canonically. */
async function matching<Row extends { email: string }>(mailbox: string, find: (domains: string[]) => Promise<Row[]>) {
  const domain = mailboxDomain(mailbox);
  const domains = domain === "gmail.com" ? ["gmail.com", "googlemail.com"] : [domain];
  return (await find(domains)).filter((row) => canonicalMailbox(row.email) === mailbox);
}

const endsWithAny = (domains: string[]) => domains.map((domain) => ({ endsWith: `@${domain}`, mode: "insensitive" as const }));

async function customerRows(email: string) {
  const mailbox = canonicalMailbox(email);
  const [orders, subscriptions, inquiries] = await Promise.all([
    db.order.findMany({
      where: { mailbox },
      orderBy: { createdAt: "asc" },
      include: {
        items: { select: { productId: true, name: true, unitPriceCents: true, quantity: true } },
        refunds: { select: { amountCents: true, createdAt: true }, orderBy: { createdAt: "asc" } },
      },
    }),
    db.subscriber.findMany({ where: { mailbox } }),
    matching(mailbox, (domains) =>
      db.partnershipInquiry.findMany({ where: { OR: endsWithAny(domains).map((email) => ({ email })) }, orderBy: { createdAt: "asc" } }),
    ),
  ]);
  const orderIds = orders.map((order) => order.id);
  const [orderEmails, inquiryEmails, otherEmails] = await Promise.all([
    db.outboxMessage.findMany({ where: { orderId: { in: orderIds } }, orderBy: { createdAt: "asc" } }),
    // The team's copy of each inquiry (app/services/emails.server.ts names it by the inquiry's id).
    db.outboxMessage.findMany({
      where: { kind: "partnership-inquiry", subject: { in: inquiries.map((inquiry) => `Partnership inquiry ${shortOrderId(inquiry.id)}`) } },
    }),
    matching(mailbox, async (domains) =>
      (await db.outboxMessage.findMany({ where: { OR: endsWithAny(domains).map((to) => ({ to })) }, orderBy: { createdAt: "asc" } })).map((message) => ({
        ...message,
        email: message.to,
      })),
    ),
  ]);
  // An order's emails to the kitchen and an inquiry's to the team are about the customer too; their own may have no order (the welcome).
  const emails = [...new Map([...orderEmails, ...inquiryEmails, ...otherEmails].map((message) => [message.id, message])).values()].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
  );
  return { mailbox, orders, subscriptions, inquiries, emails };
}

export type CustomerExport = {
  email: string;
  exported_at: string;
  orders: {
    id: string;
    created_at: string;
    status: string;
    payment_status: string;
    first_name: string;
    last_name: string;
    email: string;
    phone: string | null;
    address: string;
    city: string;
    state: string;
    zip_code: string;
    items: { product_id: string; name: string; unit_price_cents: number; quantity: number }[];
    subtotal_cents: number;
    discount_cents: number;
    discount_code: string | null;
    shipping_cents: number;
    total_cents: number;
    refunded_cents: number | null;
    /** Each refund: how much and when (decision 066). */
    refunds: { amount_cents: number; refunded_at: string }[];
    delivery_zone: string;
    carrier: string | null;
    tracking_number: string | null;
  }[];
  subscriptions: { email: string; subscribed_at: string; unsubscribed_at: string | null }[];
  inquiries: { name: string; email: string; business: string | null; message: string; sent_at: string }[];
  emails: { kind: string; to: string; subject: string; text: string; status: string; created_at: string; sent_at: string | null }[];
};

/** Everything the shop holds about the mailbox (`email` in any spelling), as the customer may ask for it; the request is recorded. */
export async function exportCustomer(email: string, actorEmail: string): Promise<CustomerExport> {
  const rows = await customerRows(email);
  await recordAudit(db, {
    actorEmail,
    action: "customer.export",
    subjectType: "customer",
    subjectId: customerReference(rows.mailbox),
    before: null,
    after: null,
  });
  return {
    email: rows.mailbox,
    exported_at: new Date().toISOString(),
    orders: rows.orders.map((order) => ({
      id: order.id,
      created_at: order.createdAt.toISOString(),
      status: order.status,
      payment_status: order.paymentStatus,
      ...exportedShipping(order),
      items: order.items.map((item) => ({ product_id: item.productId, name: item.name, unit_price_cents: item.unitPriceCents, quantity: item.quantity })),
      subtotal_cents: order.subtotalCents,
      discount_cents: order.discountCents,
      discount_code: order.discountCode,
      shipping_cents: order.shippingCents,
      total_cents: order.totalCents,
      refunded_cents: order.refundedCents,
      refunds: order.refunds.map((refund) => ({ amount_cents: refund.amountCents, refunded_at: refund.createdAt.toISOString() })),
      delivery_zone: order.deliveryZone,
      carrier: order.carrier,
      tracking_number: order.trackingNumber,
    })),
    subscriptions: rows.subscriptions.map((row) => ({
      email: row.email,
      subscribed_at: row.createdAt.toISOString(),
      unsubscribed_at: row.unsubscribedAt?.toISOString() ?? null,
      consent: { source: row.source, given_at: row.consentAt.toISOString(), note: row.consentNote },
    })),
    inquiries: rows.inquiries.map((row) => ({
      name: row.name,
      email: row.email,
      business: row.business,
      message: row.message,
      sent_at: row.createdAt.toISOString(),
    })),
    emails: rows.emails.map((row) => ({
      kind: row.kind,
      to: row.to,
      subject: row.subject,
      text: row.text,
      status: row.status,
      created_at: row.createdAt.toISOString(),
      sent_at: row.sentAt?.toISOString() ?? null,
    })),
  };
}

export type ForgetResult =
  | { ok: true; changed: { orders: number; subscriptions: number; inquiries: number; emails: number; geocoderEntries: number } }
  | { ok: false; reason: "orders-open"; openOrders: string[] };

/** An order the shop still has to deliver or settle: its address is needed until then. */
const isOpen = (order: { paymentStatus: string; status: string }) =>
  order.paymentStatus === "unpaid" || (order.paymentStatus === "paid" && order.status !== "delivered");

/**
 * Erases the mailbox's personal data: in its orders (amounts, dates, items and
 * the city, state and ZIP stay, for the books), its newsletter subscription
 * and partnership inquiries (deleted), the emails sent to it or about its
 * orders (bodies erased, the address replaced; one still waiting is
 * withdrawn), and the geocoder's cached answers for its addresses. Refused
 * while an order is still to be paid or delivered. Recorded, with the counts,
 * under a hash of the mailbox.
 */
export async function forgetCustomer(email: string, actorEmail: string): Promise<ForgetResult> {
  const rows = await customerRows(email);
  const open = rows.orders.filter(isOpen);
  if (open.length > 0) return { ok: false, reason: "orders-open", openOrders: open.map((order) => order.id.slice(0, 8)) };
  const geocoderKeys = [...new Set(rows.orders.map((order) => geocoderCacheKey(order)))];
  const changed = await inTransaction(async (tx) => {
    for (const order of rows.orders) await tx.order.update({ where: { id: order.id }, data: forgottenOrder(order.id) });
    // Any campaign's copies still to go to them first (decision 101); the lock waits out a campaign starting at this moment.
    const subscriberIds = rows.subscriptions.map((row) => row.id);
    if (subscriberIds.length > 0) await sqlIn(tx).db.selectFrom("Subscriber").select("id").where("id", "in", subscriberIds).forUpdate().execute();
    await withdrawCopies(sqlIn(tx), { subscriberIds }, "Its customer asked to be forgotten");
    const subscriptions = await tx.subscriber.deleteMany({ where: { id: { in: subscriberIds } } });
    const inquiries = await tx.partnershipInquiry.deleteMany({ where: { id: { in: rows.inquiries.map((row) => row.id) } } });
    const ids = rows.emails.map((row) => row.id);
    await tx.outboxMessage.updateMany({
      where: { id: { in: ids }, status: { in: ["pending", "sending"] } },
      data: { status: "withdrawn", lastError: "Its customer asked to be forgotten" },
    });
    const emails = await tx.outboxMessage.updateMany({
      where: { id: { in: ids } },
      data: { to: `forgotten@${FORGOTTEN_DOMAIN}`, text: "", html: "", unsubscribeUrl: null },
    });
    const geocoderEntries = await tx.geocodeResult.deleteMany({ where: { query: { in: geocoderKeys } } });
    // The demo's payment stand-in keeps the email a payment page was made for.
    await tx.mockCheckoutSession.updateMany({ where: { clientReferenceId: { in: rows.orders.map((order) => order.id) } }, data: { customerEmail: null } });
    const counts = {
      orders: rows.orders.length,
      subscriptions: subscriptions.count,
      inquiries: inquiries.count,
      emails: emails.count,
      geocoderEntries: geocoderEntries.count,
    };
    await recordAudit(tx, {
      actorEmail,
      action: "customer.forget",
      subjectType: "customer",
      subjectId: customerReference(rows.mailbox),
      before: null,
      after: counts,
    });
    return counts;
  });
  return { ok: true, changed };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows erased per run and kind; the next run takes the rest. */
const RETENTION_BATCH = 500;

export type RetentionResult = { abandonedCheckouts: number; emailBodies: number; geocoderEntries: number };

/**
 * The daily sweep (one instance at a time, app/services/jobs.server.ts):
 * checkouts never paid lose their personal data RETENTION_ABANDONED_DAYS
 * after they were given up, emails their bodies RETENTION_EMAIL_BODY_DAYS after
 * they were sent, and the geocoder's cached answers go RETENTION_GEOCODER_DAYS
 * after they were asked.
 */
export async function sweepRetention(now = new Date()): Promise<RetentionResult> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const abandoned = await db.order.findMany({
    where: { paymentStatus: { in: ["expired", "cancelled"] }, updatedAt: { lt: before(env.RETENTION_ABANDONED_DAYS) }, emailDomain: { not: FORGOTTEN_DOMAIN } },
    select: { id: true },
    take: RETENTION_BATCH,
  });
  for (const { id } of abandoned) await db.order.update({ where: { id }, data: forgottenOrder(id) });
  const bodies = await db.outboxMessage.findMany({
    where: { status: "sent", sentAt: { lt: before(env.RETENTION_EMAIL_BODY_DAYS) }, NOT: { text: "", html: "" } },
    select: { id: true },
    take: RETENTION_BATCH,
  });
  const emailBodies = await db.outboxMessage.updateMany({ where: { id: { in: bodies.map((row) => row.id) } }, data: { text: "", html: "" } });
  const geocoderEntries = await db.geocodeResult.deleteMany({ where: { createdAt: { lt: before(env.RETENTION_GEOCODER_DAYS) } } });
  return { abandonedCheckouts: abandoned.length, emailBodies: emailBodies.count, geocoderEntries: geocoderEntries.count };
}

export const describeRetention = (result: RetentionResult) =>
  `${result.abandonedCheckouts} abandoned checkouts, ${result.emailBodies} email bodies and ${result.geocoderEntries} geocoder answers erased`;
