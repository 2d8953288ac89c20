import { Heading } from "@react-email/components";
import type { ReactNode } from "react";
import { brand } from "~/lib/brand";
import { Block, Paragraph } from "~/emails/format.server";
import { EmailLayout, type EmailFooter } from "~/emails/layout.server";
import { OrderFiguresTable, OrderPageLink, OrderSummary, SignOff, orderFiguresText, type OrderFigures, type RefundFigures } from "~/emails/order-parts.server";
import { box, colors, strongParagraph, subheading } from "~/emails/theme";

/** What every email about one order knows of it. */
type OrderEmailProps = {
  shortId: string;
  figures: OrderFigures;
  /** The customer's order page, with its token. */
  pageUrl: string;
  footer: EmailFooter;
};

/** The customer's confirmation of a paid order. */
export function OrderConfirmation({
  firstName,
  deliveryDay,
  address,
  shortId,
  figures,
  pageUrl,
  footer,
}: OrderEmailProps & { firstName: string; deliveryDay: string | null; address: string }) {
  // A $0 order (a 100% code with free shipping) took no payment (decision 025).
  const received = figures.totalCents > 0 ? "we have your payment" : "it's on the house";
  return (
    <EmailLayout title="Thanks for your order!" footer={footer}>
      <Block text={`Hi ${firstName},`} />
      <Block text={`Thank you for your order! ${received[0]!.toUpperCase()}${received.slice(1)} and our kitchen is on it.`}>
        <Paragraph>{`Hi ${firstName}, ${received} and our kitchen is on it.`}</Paragraph>
      </Block>
      <OrderSummary shortId={shortId} order={figures} />
      <Block
        text={
          deliveryDay
            ? `What's next: your treats are made for your day, packed frozen, and you'll get
tracking details by email.
Delivery: ${deliveryDay}, to:
  ${address}`
            : `What's next: your treats ship within 24 hours, packed frozen, and you'll get
tracking details by email. Delivery takes 2-3 business days to:
  ${address}`
        }
      >
        <Heading as="h2" style={subheading}>
          What&apos;s next
        </Heading>
        {deliveryDay ? (
          <>
            <Paragraph style={{ fontWeight: 700 }}>{`Delivery: ${deliveryDay}`}</Paragraph>
            <Paragraph>{`Your treats are made for your day, packed frozen, and you'll get tracking details by email. We deliver to ${address}.`}</Paragraph>
          </>
        ) : (
          <Paragraph>{`Your treats ship within 24 hours, packed frozen, and you'll get tracking details by email. Delivery takes 2-3 business days to ${address}.`}</Paragraph>
        )}
      </Block>
      <OrderPageLink url={pageUrl} textLabel="Follow your order" />
      <SignOff questions={`Questions? Just reply, or write to ${brand.contactEmail}.`} />
    </EmailLayout>
  );
}

/** The kitchen's copy of a paid order: everything it needs, unmasked (the shop's own footer, no postal address). */
export function KitchenOrder({
  orderId,
  shortId,
  placedAt,
  deliveryDay,
  customer,
  figures,
}: Omit<OrderEmailProps, "pageUrl" | "footer"> & { orderId: string; placedAt: string; deliveryDay: string | null; customer: string[] }) {
  return (
    <EmailLayout title={`New paid order ${shortId}`}>
      <Block text={`New paid order ${shortId} (${orderId})\nPlaced ${placedAt}${deliveryDay ? `\nDelivery: ${deliveryDay}` : ""}`}>
        {deliveryDay ? <Paragraph style={{ fontSize: "18px", fontWeight: 700, color: colors.chocolate }}>{`Delivery: ${deliveryDay}`}</Paragraph> : null}
      </Block>
      <Block text={`Customer:\n${customer.map((line) => `  ${line}`).join("\n")}`}>
        <Paragraph style={{ ...strongParagraph, margin: "0 0 4px" }}>Customer</Paragraph>
        <Paragraph>
          {customer.map((line, index) => (
            <span key={index}>
              {index > 0 ? <br /> : null}
              {line}
            </span>
          ))}
        </Paragraph>
      </Block>
      <Block text={`Items:\n${orderFiguresText(figures)}`}>
        <Paragraph style={{ ...strongParagraph, margin: "16px 0 4px" }}>Items</Paragraph>
        <OrderFiguresTable order={figures} />
      </Block>
    </EmailLayout>
  );
}

/**
 * A customer's email about their order after it was placed (its fulfilment,
 * its delivery day, a refund): what happened, anything to add (the tracking,
 * the new day), the order's figures and the link to its page.
 */
export function OrderUpdate({
  title,
  firstName,
  message,
  details = null,
  refund,
  pageLabel,
  shortId,
  figures,
  pageUrl,
  footer,
}: OrderEmailProps & {
  title: string;
  firstName: string;
  message: string;
  /** A block between the message and the figures (TrackingDetails, DeliveryDay). */
  details?: ReactNode;
  /** Under the order's total: what went back, and what the order now comes to. */
  refund?: RefundFigures;
  /** The order page link's words in the text part. */
  pageLabel: string;
}) {
  return (
    <EmailLayout title={title} footer={footer}>
      <Block text={`Hi ${firstName},`} />
      <Block text={message}>
        <Paragraph>{`Hi ${firstName}, ${message}`}</Paragraph>
      </Block>
      {details}
      <OrderSummary shortId={shortId} order={figures} refund={refund} />
      <OrderPageLink url={pageUrl} textLabel={pageLabel} />
      <SignOff questions={`Questions? Write to ${brand.contactEmail}.`} />
    </EmailLayout>
  );
}

/** The order's delivery day, as the details of an OrderUpdate. */
export function DeliveryDay({ day }: { day: string }) {
  return (
    <Block text={`Delivery: ${day}`}>
      <Paragraph style={{ ...box, fontWeight: 700 }}>{`Delivery: ${day}`}</Paragraph>
    </Block>
  );
}
