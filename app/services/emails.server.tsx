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
import type { ShopSettings } from "~/lib/shop-settings";
import { renderEmail } from "~/emails/format.server";
import { Campaign, Welcome, type CampaignProduct } from "~/emails/list-emails.server";
import { DeliveryDay, KitchenOrder, OrderConfirmation, OrderUpdate } from "~/emails/order-emails.server";
import { TrackingDetails, type OrderFigures, type RefundFigures } from "~/emails/order-parts.server";
import { LowStock, PartnershipInquiry } from "~/emails/team-emails.server";

/**
 * The shop's emails: who each goes to, its subject, and the component in
 * app/emails that words it, rendered to HTML and plain text (react-email;
 * app/emails/format.server.tsx). JSX escapes every value from a customer;
 * none reaches a header (subjects are ours, recipients are validated
 * addresses).
 *
 * Each builder takes the shop's settings last, for the footer's postal
 * address (a ShopSettings will do; a caller reads them before its
 * transaction, as settings are read). The customers' and subscribers'
 * emails are given it; the team's own (the kitchen's order, an inquiry, low
 * stock) go to the shop itself and are not.
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

/** What an email's footer says of the shop besides its name: its postal address, when the owner has set one. */
export type ShopFooter = Pick<ShopSettings, "postalAddress">;

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

const figuresOf = (order: OrderForEmail): OrderFigures => ({
  items: order.items.map((item) => ({ name: item.name, quantity: item.quantity, lineCents: lineTotalCents(item.unitPriceCents, item.quantity) })),
  subtotalCents: order.subtotalCents,
  discountCents: order.discountCents,
  discountCode: order.discountCode,
  shippingCents: order.shippingCents,
  totalCents: order.totalCents,
});

/** What every email about one order shows: its short id, its figures, and the customer's link to its page. */
const aboutOrder = (order: OrderForEmail) => ({ shortId: shortOrderId(order.id), figures: figuresOf(order), pageUrl: orderPageUrl(order.id) });

const streetAddress = (order: OrderForEmail) => `${order.address}, ${order.city}, ${order.state} ${order.zipCode}`;

export async function orderConfirmationEmail(order: OrderForEmail, shop: ShopFooter): Promise<EmailContent> {
  const email = await renderEmail(
    <OrderConfirmation
      {...aboutOrder(order)}
      footer={{ postalAddress: shop.postalAddress }}
      firstName={order.firstName}
      deliveryDay={deliveryDayOf(order)}
      address={streetAddress(order)}
    />,
  );
  return {
    kind: "order-confirmation",
    to: order.email,
    subject: `Your ${brand.name} order ${shortOrderId(order.id)} is confirmed`,
    ...email,
    orderId: order.id,
  };
}

/** Everything the kitchen needs, unmasked: this goes only to FULFILMENT_EMAIL. */
export async function fulfilmentEmail(order: OrderForEmail): Promise<EmailContent> {
  const shortId = shortOrderId(order.id);
  const customer = [
    `${order.firstName} ${order.lastName}`,
    order.email,
    order.phone ?? "(no phone given)",
    streetAddress(order),
    `Zone: ${order.deliveryZone}, ${(order.distanceTenths / 10).toFixed(1)} miles`,
    ...customerNotes(order).map((note) => `${note.label}: ${note.text}`),
  ];
  const email = await renderEmail(
    <KitchenOrder
      orderId={order.id}
      shortId={shortId}
      placedAt={kitchenTime(order.createdAt)}
      deliveryDay={deliveryDayOf(order)}
      customer={customer}
      figures={figuresOf(order)}
    />,
  );
  return { kind: "order-fulfilment", to: env.FULFILMENT_EMAIL, subject: `New order ${shortId}: ship within 24 hours`, ...email, orderId: order.id };
}

export async function welcomeEmail(email: string, unsubscribeUrl: string, shop: ShopFooter): Promise<EmailContent> {
  const rendered = await renderEmail(<Welcome footer={{ postalAddress: shop.postalAddress, unsubscribeUrl }} />);
  return { kind: "newsletter-welcome", to: email, subject: `Welcome to ${brand.name}: here's 10% off`, ...rendered, unsubscribeUrl };
}

export async function partnershipEmail(inquiry: { id: string; name: string; email: string; business: string | null; message: string }): Promise<EmailContent> {
  const email = await renderEmail(<PartnershipInquiry name={inquiry.name} email={inquiry.email} business={inquiry.business} message={inquiry.message} />);
  // The subject is ours: a visitor's words never reach a header.
  return { kind: "partnership-inquiry", to: env.TEAM_EMAIL, subject: `Partnership inquiry ${shortOrderId(inquiry.id)}`, ...email };
}

/** To the team when a product's stock falls to its threshold (once per crossing; decision 063). */
export async function lowStockEmail(product: { id: string; name: string }, left: number): Promise<EmailContent> {
  const email = await renderEmail(<LowStock name={product.name} left={left} />);
  const state = left === 0 ? "is sold out" : `has ${left} left`;
  return { kind: "low-stock", to: env.TEAM_EMAIL, subject: `Low stock: ${product.name} ${state}`, ...email };
}

/** The end of each status email's subject: "Your Chill PB order 1a2b3c4d is on its way". */
const statusSubjects: Record<Exclude<FulfilmentStatus, "pending">, string> = {
  preparing: "is being prepared",
  shipped: "is on its way",
  delivered: "has been delivered",
};

/** The customer's email for a fulfilment status change (preparing, shipped, delivered), in the words of their order page. */
export async function orderStatusEmail(order: OrderForEmail, status: Exclude<FulfilmentStatus, "pending">, shop: ShopFooter): Promise<EmailContent> {
  const copy = ORDER_STATUS_COPY[status];
  const tracking =
    status === "shipped" && order.carrier ? (
      <TrackingDetails carrier={order.carrier} trackingNumber={order.trackingNumber ?? null} url={trackingUrl(order.carrier, order.trackingNumber ?? null)} />
    ) : null;
  const email = await renderEmail(
    <OrderUpdate
      {...aboutOrder(order)}
      footer={{ postalAddress: shop.postalAddress }}
      title={copy.title}
      firstName={order.firstName}
      message={copy.lead}
      details={tracking}
      pageLabel="Follow your order"
    />,
  );
  const subject = `Your ${brand.name} order ${shortOrderId(order.id)} ${statusSubjects[status]}`;
  return { kind: `order-${status}`, to: order.email, subject, ...email, orderId: order.id };
}

/** The customer's email when their order's delivery day changes (decision 100): by themselves from their order page, or by the shop. */
export async function deliveryDayEmail(order: OrderForEmail, movedBy: "customer" | "shop", shop: ShopFooter): Promise<EmailContent> {
  const day = deliveryDayOf(order) ?? "";
  const email = await renderEmail(
    <OrderUpdate
      {...aboutOrder(order)}
      footer={{ postalAddress: shop.postalAddress }}
      title="Your delivery day"
      firstName={order.firstName}
      message={
        movedBy === "customer"
          ? `Your delivery day is now ${day}. We'll make your treats for that day.`
          : `We've moved your delivery to ${day}. If that day doesn't suit you, reply and we'll find another.`
      }
      details={<DeliveryDay day={day} />}
      pageLabel="Follow your order"
    />,
  );
  return {
    kind: "order-delivery-day",
    to: order.email,
    subject: `Your ${brand.name} order ${shortOrderId(order.id)} now arrives ${day}`,
    ...email,
    orderId: order.id,
  };
}

/**
 * The customer's email when an order is refunded whole: by one refund, or by
 * the last of several (`amountCents` this one, `refundedCents` all of them).
 * The operator's reason stays in the order's record. An order the owner
 * cancelled is told so in the same one email (decision 064): cancelled, and refunded.
 */
export async function orderRefundEmail(
  order: OrderForEmail & { status?: OrderStatus },
  { amountCents, refundedCents }: { amountCents: number; refundedCents: number },
  shop: ShopFooter,
): Promise<EmailContent> {
  const id = shortOrderId(order.id);
  const earlier = refundedCents > amountCents;
  if (order.status === "cancelled") {
    const email = await renderEmail(
      <OrderUpdate
        {...aboutOrder(order)}
        footer={{ postalAddress: shop.postalAddress }}
        title={ORDER_STATUS_COPY.cancelled.title}
        firstName={order.firstName}
        message={`We cancelled order ${id} before it shipped and refunded ${formatCents(amountCents)} to the card you paid with${earlier ? ` (${formatCents(refundedCents)} in all)` : ""}. Banks usually show it within 5-10 business days. We're sorry we couldn't deliver this one.`}
        pageLabel="Your order page"
      />,
    );
    return { kind: "order-cancelled", to: order.email, subject: `Your ${brand.name} order ${id} was cancelled and refunded`, ...email, orderId: order.id };
  }
  const email = await renderEmail(
    <OrderUpdate
      {...aboutOrder(order)}
      footer={{ postalAddress: shop.postalAddress }}
      title="Your refund is on its way"
      firstName={order.firstName}
      message={
        earlier
          ? `We've refunded the rest of order ${id}, ${formatCents(amountCents)}, to the card you paid with: ${formatCents(refundedCents)} in all. Banks usually show it within 5-10 business days.`
          : `We've refunded ${formatCents(amountCents)} for order ${id} to the card you paid with. Banks usually show it within 5-10 business days.`
      }
      pageLabel="Your order page"
    />,
  );
  return { kind: "order-refunded", to: order.email, subject: `Your ${brand.name} order ${id} has been refunded`, ...email, orderId: order.id };
}

/**
 * The customer's email for a refund of part of an order (decision 066): how
 * much, for which items when the owner chose them, and that the rest of the
 * order stands. The operator's reason stays in the order's record.
 */
export async function orderPartRefundEmail(
  order: OrderForEmail,
  { amountCents, refundedCents, lines }: { amountCents: number; refundedCents: number; lines: readonly { name: string; quantity: number }[] },
  shop: ShopFooter,
): Promise<EmailContent> {
  const id = shortOrderId(order.id);
  const what = lines.length > 0 ? ` for ${lines.map((line) => `${line.quantity} × ${line.name}`).join(", ")}` : "";
  const sofar = refundedCents > amountCents ? ` That makes ${formatCents(refundedCents)} refunded on this order so far.` : "";
  const refund: RefundFigures = { refundedCents };
  const email = await renderEmail(
    <OrderUpdate
      {...aboutOrder(order)}
      footer={{ postalAddress: shop.postalAddress }}
      title="Part of your order is refunded"
      firstName={order.firstName}
      message={`We've refunded ${formatCents(amountCents)}${what} from order ${id} to the card you paid with. Banks usually show it within 5-10 business days.${sofar} The rest of your order stands as it was.`}
      refund={refund}
      pageLabel="Your order page"
    />,
  );
  return {
    kind: "order-part-refunded",
    to: order.email,
    subject: `${formatCents(amountCents)} of your ${brand.name} order ${id} has been refunded`,
    ...email,
    orderId: order.id,
  };
}

/** A campaign as its email reads it (the campaigns' module fills it in). */
export type CampaignForEmail = {
  subject: string;
  preheader: string | null;
  /** A small Markdown subset: paragraphs (blank line), **bold**, [links](https://…), lists ("- item" lines); app/emails/markdown.ts. */
  body: string;
  /** Absolute URLs. */
  products: CampaignProduct[];
  discountCode: string | null;
  /** Absolute, e.g. https://chillpb.com/shop. */
  shopUrl: string;
};

/** One subscriber's copy of a campaign: the owner's words, products and code, with the subscriber's own unsubscribe link. */
export async function campaignEmail(
  campaign: CampaignForEmail,
  recipient: { email: string; unsubscribeUrl: string },
  footer: { postalAddress: string },
): Promise<EmailContent> {
  const email = await renderEmail(
    <Campaign
      title={campaign.subject}
      preheader={campaign.preheader}
      body={campaign.body}
      products={campaign.products}
      discountCode={campaign.discountCode}
      shopUrl={campaign.shopUrl}
      footer={{ postalAddress: footer.postalAddress, unsubscribeUrl: recipient.unsubscribeUrl }}
    />,
  );
  return { kind: "campaign", to: recipient.email, subject: campaign.subject, ...email, unsubscribeUrl: recipient.unsubscribeUrl };
}
