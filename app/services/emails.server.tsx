import { brand } from "~/lib/brand";
import { lineTotalCents } from "~/models/pricing.server";
import { ORDER_STATUS_COPY, shortOrderId, type FulfilmentStatus, type OrderStatus, type StoredShipping } from "~/lib/orders";
import { customerNotes } from "~/lib/shipping-fields";
import { env } from "~/utils/env.server";
import { kitchenTime } from "~/lib/dates";
import { formatCents } from "~/lib/money";
import { trackingUrl } from "~/lib/tracking";
import { orderPageUrl } from "~/utils/order-link.server";
import { orderDeliveryWhen } from "~/lib/delivery-schedule";

/**
 * The shop's emails as plain text and HTML. Every value from a customer is
 * escaped for HTML; none reaches a header (subjects are ours, recipients are
 * validated addresses).
 */

export type EmailContent = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  orderId?: string;
  /** Newsletter emails: the one-click unsubscribe link. */
  unsubscribeUrl?: string;
};

/** A paid order as its emails read it: who it goes to (every field of the shipping form, as stored), its figures and its lines. */
type OrderForEmail = StoredShipping & {
  id: string;
  subtotalCents: number;
  discountCents: number;
  discountCode: string | null;
  shippingCents: number;
  totalCents: number;
  deliveryZone: string;
  distanceTenths: number;
  createdAt: Date;
  items: { name: string; unitPriceCents: number; quantity: number }[];
  /** Given with the "shipped" status. */
  carrier?: string | null;
  trackingNumber?: string | null;
  /** The day the customer chose and its window's words (decision 100); null for an order placed before delivery days. */
  deliveryDate?: Date | null;
  deliverySlotLabel?: string | null;
};

/** "Thursday, December 3, 9am–12pm", or null for an order without a chosen day. */
const deliveryDayOf = (order: OrderForEmail) =>
  orderDeliveryWhen({ deliveryDate: order.deliveryDate ?? null, deliverySlotLabel: order.deliverySlotLabel ?? null });

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function layout(title: string, body: string) {
  return `<!doctype html><html><body style="margin:0;background:#fff8ef;font-family:Nunito,Segoe UI,Arial,sans-serif;color:#2a1a12">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:16px;overflow:hidden">
<tr><td style="background:#3f2417;color:#fff8ef;padding:20px 28px;font-size:22px;font-weight:700">Chill<span style="color:#f6d36b">PB</span></td></tr>
<tr><td style="padding:28px"><h1 style="margin:0 0 16px;font-size:24px;color:#3f2417">${escapeHtml(title)}</h1>${body}</td></tr>
<tr><td style="padding:18px 28px;background:#fbeedd;font-size:13px;color:#6b5143">${escapeHtml(brand.name)} · ${escapeHtml(brand.city)} · <a href="mailto:${brand.contactEmail}" style="color:#5b3421">${brand.contactEmail}</a></td></tr>
</table></td></tr></table></body></html>`;
}

/** What went back to the card, when the email is about a refund: all refunds so far, and what the order now comes to. */
type RefundFigures = { refundedCents: number } | undefined;

function itemsTable(order: OrderForEmail, refund?: RefundFigures) {
  const rows = order.items
    .map(
      (item) =>
        `<tr><td style="padding:6px 0">${escapeHtml(item.name)} × ${item.quantity}</td><td align="right">${formatCents(lineTotalCents(item.unitPriceCents, item.quantity))}</td></tr>`,
    )
    .join("");
  const discount = order.discountCents
    ? `<tr><td style="padding:6px 0">Discount${order.discountCode ? ` (${escapeHtml(order.discountCode)})` : ""}</td><td align="right">-${formatCents(order.discountCents)}</td></tr>`
    : "";
  return `<table role="presentation" width="100%" style="border-collapse:collapse;font-size:15px">${rows}
<tr><td colspan="2" style="border-top:1px solid #eddcc8"></td></tr>
<tr><td style="padding:6px 0">Subtotal</td><td align="right">${formatCents(order.subtotalCents)}</td></tr>${discount}
<tr><td style="padding:6px 0">Shipping</td><td align="right">${order.shippingCents ? formatCents(order.shippingCents) : "Free"}</td></tr>
<tr><td style="padding:6px 0;font-weight:700">Total</td><td align="right" style="font-weight:700">${formatCents(order.totalCents)}</td></tr>${
    refund
      ? `
<tr><td style="padding:6px 0">Refunded</td><td align="right">-${formatCents(refund.refundedCents)}</td></tr>
<tr><td style="padding:6px 0;font-weight:700">You paid, after refunds</td><td align="right" style="font-weight:700">${formatCents(order.totalCents - refund.refundedCents)}</td></tr>`
      : ""
  }</table>`;
}

/** The customer's own order page (app/routes/orders.$id): status, dates and tracking. */
function orderPageButton(orderId: string) {
  return `<p style="margin:24px 0;text-align:center"><a href="${escapeHtml(orderPageUrl(orderId))}" style="display:inline-block;background:#3f2417;color:#fff8ef;font-weight:700;text-decoration:none;padding:12px 22px;border-radius:999px">Follow your order</a></p>`;
}

function itemsText(order: OrderForEmail, refund?: RefundFigures) {
  return [
    ...order.items.map((item) => `  ${item.quantity} × ${item.name}  ${formatCents(lineTotalCents(item.unitPriceCents, item.quantity))}`),
    `  Subtotal  ${formatCents(order.subtotalCents)}`,
    ...(order.discountCents ? [`  Discount${order.discountCode ? ` (${order.discountCode})` : ""}  -${formatCents(order.discountCents)}`] : []),
    `  Shipping  ${order.shippingCents ? formatCents(order.shippingCents) : "Free"}`,
    `  Total     ${formatCents(order.totalCents)}`,
    ...(refund
      ? [`  Refunded  -${formatCents(refund.refundedCents)}`, `  You paid, after refunds  ${formatCents(order.totalCents - refund.refundedCents)}`]
      : []),
  ].join("\n");
}

export function orderConfirmationEmail(order: OrderForEmail): EmailContent {
  const id = shortOrderId(order.id);
  // A $0 order (a 100% code with free shipping) took no payment (decision 025).
  const received = order.totalCents > 0 ? "we have your payment" : "it's on the house";
  const day = deliveryDayOf(order);
  const address = `${order.address}, ${order.city}, ${order.state} ${order.zipCode}`;
  const whatsNext = day
    ? `What's next: your treats are made for your day, packed frozen, and you'll get
tracking details by email.
Delivery: ${day}, to:
  ${address}`
    : `What's next: your treats ship within 24 hours, packed frozen, and you'll get
tracking details by email. Delivery takes 2-3 business days to:
  ${address}`;
  const text = `Hi ${order.firstName},

Thank you for your order! ${received[0]!.toUpperCase()}${received.slice(1)} and our kitchen is on it.

Order ${id}
${itemsText(order)}

${whatsNext}

Follow your order: ${orderPageUrl(order.id)}

Questions? Just reply, or write to ${brand.contactEmail}.

Stay chill,
The ${brand.name} team`;
  const html = layout(
    "Thanks for your order!",
    `<p>Hi ${escapeHtml(order.firstName)}, ${received} and our kitchen is on it.</p>
<p style="font-weight:700">Order ${id}</p>${itemsTable(order)}
<h2 style="font-size:18px;color:#3f2417;margin:24px 0 8px">What's next</h2>
${
  day
    ? `<p style="font-weight:700">Delivery: ${escapeHtml(day)}</p>
<p>Your treats are made for your day, packed frozen, and you'll get tracking details by email. We deliver to ${escapeHtml(address)}.</p>`
    : `<p>Your treats ship within 24 hours, packed frozen, and you'll get tracking details by email. Delivery takes 2-3 business days to ${escapeHtml(address)}.</p>`
}
${orderPageButton(order.id)}`,
  );
  return { kind: "order-confirmation", to: order.email, subject: `Your ${brand.name} order ${id} is confirmed`, text, html, orderId: order.id };
}

/** Everything the kitchen needs, unmasked: this goes only to FULFILMENT_EMAIL. */
export function fulfilmentEmail(order: OrderForEmail): EmailContent {
  const id = shortOrderId(order.id);
  const customer = [
    `${order.firstName} ${order.lastName}`,
    order.email,
    order.phone ?? "(no phone given)",
    `${order.address}, ${order.city}, ${order.state} ${order.zipCode}`,
    `Zone: ${order.deliveryZone}, ${(order.distanceTenths / 10).toFixed(1)} miles`,
    ...customerNotes(order).map((note) => `${note.label}: ${note.text}`),
  ];
  const day = deliveryDayOf(order);
  const text = `New paid order ${id} (${order.id})
Placed ${kitchenTime(order.createdAt)}${day ? `\nDelivery: ${day}` : ""}

Customer:
${customer.map((line) => `  ${line}`).join("\n")}

Items:
${itemsText(order)}`;
  const html = layout(
    `New paid order ${id}`,
    `${day ? `<p style="font-size:18px;font-weight:700;color:#3f2417">Delivery: ${escapeHtml(day)}</p>\n` : ""}<p style="margin:0 0 4px;font-weight:700">Customer</p>
<p>${customer.map(escapeHtml).join("<br>")}</p>
<p style="margin:16px 0 4px;font-weight:700">Items</p>${itemsTable(order)}`,
  );
  return { kind: "order-fulfilment", to: env.FULFILMENT_EMAIL, subject: `New order ${id}: ship within 24 hours`, text, html, orderId: order.id };
}

export function welcomeEmail(email: string, unsubscribeUrl: string): EmailContent {
  const text = `Welcome to the ${brand.name} family!

Thanks for joining. You'll be the first to hear about new flavors, special
offers and exclusive updates.

Here's 10% off your first order: use code WELCOME10 at checkout.

Stay chill,
The ${brand.name} team

Don't want these emails? Unsubscribe: ${unsubscribeUrl}`;
  const html = layout(
    `Welcome to the ${brand.name} family!`,
    `<p>Thanks for joining. You'll be the first to hear about new flavors, special offers and exclusive updates.</p>
<p style="margin:24px 0;text-align:center"><span style="display:inline-block;background:#f6d36b;color:#3f2417;font-size:22px;font-weight:700;letter-spacing:2px;padding:12px 22px;border-radius:10px">WELCOME10</span></p>
<p>Use it at checkout for <strong>10% off your first order</strong>.</p>
<p style="font-size:13px;color:#6b5143;margin-top:28px">Don't want these emails? <a href="${escapeHtml(unsubscribeUrl)}" style="color:#5b3421">Unsubscribe</a>.</p>`,
  );
  return { kind: "newsletter-welcome", to: email, subject: `Welcome to ${brand.name}: here's 10% off`, text, html, unsubscribeUrl };
}

export function partnershipEmail(inquiry: { id: string; name: string; email: string; business: string | null; message: string }): EmailContent {
  const text = `A new partnership inquiry from the website.

Name: ${inquiry.name}
Email: ${inquiry.email}
Business: ${inquiry.business ?? "(not given)"}

${inquiry.message}`;
  const html = layout(
    "New partnership inquiry",
    `<p><strong>Name:</strong> ${escapeHtml(inquiry.name)}<br><strong>Email:</strong> ${escapeHtml(inquiry.email)}<br><strong>Business:</strong> ${escapeHtml(inquiry.business ?? "(not given)")}</p>
<p style="white-space:pre-wrap;background:#fff8ef;border-radius:10px;padding:14px">${escapeHtml(inquiry.message)}</p>`,
  );
  // The subject is ours: a visitor's words never reach a header.
  return { kind: "partnership-inquiry", to: env.TEAM_EMAIL, subject: `Partnership inquiry ${shortOrderId(inquiry.id)}`, text, html };
}

/** To the team when a product's stock falls to its threshold (once per crossing; decision 063). */
export function lowStockEmail(product: { id: string; name: string }, left: number): EmailContent {
  const state = left === 0 ? "is sold out" : `has ${left} left`;
  const text = `${product.name} ${state}.

The shop says "${left === 0 ? "Sold out" : `Only ${left} left`}" on its page. Set a new stock count in the dashboard (Products) once the next batch is made.`;
  const html = layout(
    left === 0 ? `${product.name} is sold out` : `${product.name} is running low`,
    `<p><strong>${escapeHtml(product.name)}</strong> ${state}.</p>
<p>The shop says &quot;${left === 0 ? "Sold out" : `Only ${left} left`}&quot; on its page. Set a new stock count in the dashboard (Products) once the next batch is made.</p>`,
  );
  return { kind: "low-stock", to: env.TEAM_EMAIL, subject: `Low stock: ${product.name} ${state}`, text, html };
}

/** The end of each status email's subject: "Your Chill PB order 1a2b3c4d is on its way". */
const statusSubjects: Record<Exclude<FulfilmentStatus, "pending">, string> = {
  preparing: "is being prepared",
  shipped: "is on its way",
  delivered: "has been delivered",
};

/** The carrier and number of a shipped order, with the carrier's tracking link when it has one. */
function trackingLines(order: OrderForEmail) {
  if (!order.carrier) return null;
  const url = trackingUrl(order.carrier, order.trackingNumber ?? null);
  const text = [
    `Carrier: ${order.carrier}`,
    ...(order.trackingNumber ? [`Tracking number: ${order.trackingNumber}`] : []),
    ...(url ? [`Track it: ${url}`] : []),
  ].join("\n");
  const html = `<p style="background:#fff8ef;border-radius:10px;padding:14px;margin:16px 0"><strong>Carrier:</strong> ${escapeHtml(order.carrier)}${
    order.trackingNumber ? `<br><strong>Tracking number:</strong> ${escapeHtml(order.trackingNumber)}` : ""
  }${url ? `<br><a href="${escapeHtml(url)}" style="color:#5b3421;font-weight:700">Track your parcel with ${escapeHtml(order.carrier)}</a>` : ""}</p>`;
  return { text, html };
}

/**
 * A customer's email about their order: what happened, anything to add (the
 * tracking), the order's items and the link to its page.
 */
function orderUpdateBody(
  order: OrderForEmail,
  update: { heading: string; body: string; pageLabel: string; extra?: { text: string; html: string } | null; refund?: RefundFigures },
) {
  const id = shortOrderId(order.id);
  const text = `Hi ${order.firstName},

${update.body}
${update.extra ? `\n${update.extra.text}\n` : ""}
Order ${id}
${itemsText(order, update.refund)}

${update.pageLabel}: ${orderPageUrl(order.id)}

Questions? Write to ${brand.contactEmail}.

Stay chill,
The ${brand.name} team`;
  const html = layout(
    update.heading,
    `<p>Hi ${escapeHtml(order.firstName)}, ${escapeHtml(update.body)}</p>${update.extra?.html ?? ""}<p style="font-weight:700">Order ${id}</p>${itemsTable(order, update.refund)}${orderPageButton(order.id)}`,
  );
  return { text, html };
}

/** The customer's email for a fulfilment status change (preparing, shipped, delivered), in the words of their order page. */
export function orderStatusEmail(order: OrderForEmail, status: Exclude<FulfilmentStatus, "pending">): EmailContent {
  const copy = ORDER_STATUS_COPY[status];
  const { text, html } = orderUpdateBody(order, {
    heading: copy.title,
    body: copy.lead,
    pageLabel: "Follow your order",
    extra: status === "shipped" ? trackingLines(order) : null,
  });
  const subject = `Your ${brand.name} order ${shortOrderId(order.id)} ${statusSubjects[status]}`;
  return { kind: `order-${status}`, to: order.email, subject, text, html, orderId: order.id };
}

/** The customer's email when their order's delivery day changes (decision 100): by themselves from their order page, or by the shop. */
export function deliveryDayEmail(order: OrderForEmail, movedBy: "customer" | "shop"): EmailContent {
  const day = deliveryDayOf(order) ?? "";
  const { text, html } = orderUpdateBody(order, {
    heading: "Your delivery day",
    body:
      movedBy === "customer"
        ? `Your delivery day is now ${day}. We'll make your treats for that day.`
        : `We've moved your delivery to ${day}. If that day doesn't suit you, reply and we'll find another.`,
    pageLabel: "Follow your order",
    extra: { text: `Delivery: ${day}`, html: `<p style="font-weight:700">Delivery: ${escapeHtml(day)}</p>` },
  });
  return {
    kind: "order-delivery-day",
    to: order.email,
    subject: `Your ${brand.name} order ${shortOrderId(order.id)} now arrives ${day}`,
    text,
    html,
    orderId: order.id,
  };
}

/**
 * The customer's email when an order is refunded whole: by one refund, or by
 * the last of several (`amountCents` this one, `refundedCents` all of them).
 * The operator's reason stays in the order's record. An order the owner
 * cancelled is told so in the same one email (decision 064): cancelled, and refunded.
 */
export function orderRefundEmail(
  order: OrderForEmail & { status?: OrderStatus },
  { amountCents, refundedCents }: { amountCents: number; refundedCents: number },
): EmailContent {
  const id = shortOrderId(order.id);
  const earlier = refundedCents > amountCents;
  if (order.status === "cancelled") {
    const { text, html } = orderUpdateBody(order, {
      heading: ORDER_STATUS_COPY.cancelled.title,
      body: `We cancelled order ${id} before it shipped and refunded ${formatCents(amountCents)} to the card you paid with${earlier ? ` (${formatCents(refundedCents)} in all)` : ""}. Banks usually show it within 5-10 business days. We're sorry we couldn't deliver this one.`,
      pageLabel: "Your order page",
    });
    return { kind: "order-cancelled", to: order.email, subject: `Your ${brand.name} order ${id} was cancelled and refunded`, text, html, orderId: order.id };
  }
  const { text, html } = orderUpdateBody(order, {
    heading: "Your refund is on its way",
    body: earlier
      ? `We've refunded the rest of order ${id}, ${formatCents(amountCents)}, to the card you paid with: ${formatCents(refundedCents)} in all. Banks usually show it within 5-10 business days.`
      : `We've refunded ${formatCents(amountCents)} for order ${id} to the card you paid with. Banks usually show it within 5-10 business days.`,
    pageLabel: "Your order page",
  });
  return { kind: "order-refunded", to: order.email, subject: `Your ${brand.name} order ${id} has been refunded`, text, html, orderId: order.id };
}

/**
 * The customer's email for a refund of part of an order (decision 066): how
 * much, for which items when the owner chose them, and that the rest of the
 * order stands. The operator's reason stays in the order's record.
 */
export function orderPartRefundEmail(
  order: OrderForEmail,
  { amountCents, refundedCents, lines }: { amountCents: number; refundedCents: number; lines: readonly { name: string; quantity: number }[] },
): EmailContent {
  const id = shortOrderId(order.id);
  const what = lines.length > 0 ? ` for ${lines.map((line) => `${line.quantity} × ${line.name}`).join(", ")}` : "";
  const sofar = refundedCents > amountCents ? ` That makes ${formatCents(refundedCents)} refunded on this order so far.` : "";
  const { text, html } = orderUpdateBody(order, {
    heading: "Part of your order is refunded",
    body: `We've refunded ${formatCents(amountCents)}${what} from order ${id} to the card you paid with. Banks usually show it within 5-10 business days.${sofar} The rest of your order stands as it was.`,
    pageLabel: "Your order page",
    // Under the order's total: what went back, and what the order now comes to.
    refund: { refundedCents },
  });
  return {
    kind: "order-part-refunded",
    to: order.email,
    subject: `${formatCents(amountCents)} of your ${brand.name} order ${id} has been refunded`,
    text,
    html,
    orderId: order.id,
  };
}
