import { Button, Column, Link, Row, Section } from "@react-email/components";
import { brand } from "~/lib/brand";
import { formatCents } from "~/lib/money";
import { Block, Paragraph } from "~/emails/format.server";
import { box, button, colors, link } from "~/emails/theme";

/** An order's lines and figures as its emails show them (app/services/emails.server.ts fills them in). */
export type OrderFigures = {
  items: { name: string; quantity: number; lineCents: number }[];
  subtotalCents: number;
  discountCents: number;
  discountCode: string | null;
  shippingCents: number;
  totalCents: number;
};

/** What went back to the card, when the email is about a refund: all refunds so far. */
export type RefundFigures = { refundedCents: number };

type FigureRow = { label: string; amount: string; strong?: boolean };

/** The rows under the items, in order: subtotal, discount, shipping, total, and after a refund what the order now comes to. */
function figureRows(order: OrderFigures, refund?: RefundFigures): FigureRow[] {
  return [
    { label: "Subtotal", amount: formatCents(order.subtotalCents) },
    ...(order.discountCents
      ? [{ label: `Discount${order.discountCode ? ` (${order.discountCode})` : ""}`, amount: `-${formatCents(order.discountCents)}` }]
      : []),
    { label: "Shipping", amount: order.shippingCents ? formatCents(order.shippingCents) : "Free" },
    { label: "Total", amount: formatCents(order.totalCents), strong: true },
    ...(refund
      ? [
          { label: "Refunded", amount: `-${formatCents(refund.refundedCents)}` },
          { label: "You paid, after refunds", amount: formatCents(order.totalCents - refund.refundedCents), strong: true },
        ]
      : []),
  ];
}

/** The text part's figures, indented, each amount after its label (the short labels padded to "Subtotal"'s width). */
export function orderFiguresText(order: OrderFigures, refund?: RefundFigures) {
  return [
    ...order.items.map((item) => `  ${item.quantity} × ${item.name}  ${formatCents(item.lineCents)}`),
    ...figureRows(order, refund).map((row) => `  ${row.label.padEnd("Subtotal".length)}  ${row.amount}`),
  ].join("\n");
}

const cell = { padding: "6px 0", fontSize: "15px", lineHeight: "20px", color: colors.ink };

function FigureLine({ label, amount, strong = false }: FigureRow) {
  const style = strong ? { ...cell, fontWeight: 700 } : cell;
  return (
    <Row>
      <Column style={style}>{label}</Column>
      <Column align="right" style={{ ...style, whiteSpace: "nowrap", paddingLeft: "12px" }}>
        {amount}
      </Column>
    </Row>
  );
}

/** The HTML part's figures: the items, a rule, then the subtotal down to the total. */
export function OrderFiguresTable({ order, refund }: { order: OrderFigures; refund?: RefundFigures }) {
  return (
    <Section style={{ margin: "0 0 8px" }}>
      {order.items.map((item, index) => (
        <FigureLine key={index} label={`${item.name} × ${item.quantity}`} amount={formatCents(item.lineCents)} />
      ))}
      <Row>
        <Column style={{ borderTop: `1px solid ${colors.rule}`, height: "1px", lineHeight: "1px", fontSize: "1px" }}>&nbsp;</Column>
      </Row>
      {figureRows(order, refund).map((row) => (
        <FigureLine key={row.label} {...row} />
      ))}
    </Section>
  );
}

/** "Order 1a2b3c4d" and its figures, in both parts. */
export function OrderSummary({ shortId, order, refund }: { shortId: string; order: OrderFigures; refund?: RefundFigures }) {
  return (
    <Block text={`Order ${shortId}\n${orderFiguresText(order, refund)}`}>
      <Paragraph style={{ fontWeight: 700, margin: "24px 0 8px" }}>{`Order ${shortId}`}</Paragraph>
      <OrderFiguresTable order={order} refund={refund} />
    </Block>
  );
}

/** The customer's own order page (app/routes/orders.$id): a button in the HTML, "<label>: <url>" in the text. */
export function OrderPageLink({ url, textLabel }: { url: string; textLabel: string }) {
  return (
    <Block text={`${textLabel}: ${url}`}>
      <Section style={{ margin: "24px 0", textAlign: "center" }}>
        <Button href={url} style={button}>
          Follow your order
        </Button>
      </Section>
    </Block>
  );
}

/** A shipped order's carrier and number, with the carrier's tracking link when it has one. */
export function TrackingDetails({ carrier, trackingNumber, url }: { carrier: string; trackingNumber: string | null; url: string | null }) {
  return (
    <Block text={[`Carrier: ${carrier}`, ...(trackingNumber ? [`Tracking number: ${trackingNumber}`] : []), ...(url ? [`Track it: ${url}`] : [])].join("\n")}>
      <Paragraph style={box}>
        <strong>Carrier:</strong> {` ${carrier}`}
        {trackingNumber ? (
          <>
            <br />
            <strong>Tracking number:</strong> {` ${trackingNumber}`}
          </>
        ) : null}
        {url ? (
          <>
            <br />
            <Link href={url} style={{ ...link, fontWeight: 700 }}>
              {`Track your parcel with ${carrier}`}
            </Link>
          </>
        ) : null}
      </Paragraph>
    </Block>
  );
}

/** The end of a customer's email in the text part (the HTML's footer says it there). */
export function SignOff({ questions }: { questions: string }) {
  return (
    <>
      <Block text={questions} />
      <Block text={`Stay chill,\nThe ${brand.name} team`} />
    </>
  );
}
