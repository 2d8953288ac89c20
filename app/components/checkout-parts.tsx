import { brand } from "~/lib/brand";
import { FreeShippingHint } from "~/components/free-shipping-hint";
import { CheckIcon, MailIcon, PinIcon, TruckIcon } from "~/components/icons";
import { AllergenLine } from "~/components/product/allergen-line";
import { thumbnailSources } from "~/components/product-image";
import type { CheckedDelivery } from "~/routes/checkout/checkout.server";
import type { CheckoutSummary } from "~/routes/checkout/summary.server";
import { DELIVERY_PROBLEMS } from "~/lib/delivery-zones";
import { formatCents, formatWholeDollars } from "~/lib/money";
import { minimumOrderMessage, type Message } from "~/lib/messages";

export function MessageBanner({ message }: { message: Message | null }) {
  if (!message) return null;
  return (
    <div className={`message ${message.destructive ? "message--destructive" : "message--success"}`} role={message.destructive ? "alert" : "status"}>
      <p className="message__title">{message.title}</p>
      <p>{message.description}</p>
    </div>
  );
}

export function DeliveryResult({ delivery, address }: { delivery: CheckedDelivery; address: string }) {
  if (delivery.ok) {
    return (
      <div className="delivery-result delivery-result--ok" data-testid="delivery-result" tabIndex={-1}>
        <CheckIcon />
        <div>
          <p className="delivery-result__title">We deliver to you!</p>
          <p>
            {delivery.miles.toFixed(1)} miles away · <span className="capitalize">{delivery.zone}</span> zone
            {delivery.minimumCents > 0 ? ` · minimum order ${formatWholeDollars(delivery.minimumCents)}` : ""}
          </p>
        </div>
      </div>
    );
  }
  const subject = encodeURIComponent("Delivery request");
  const body = encodeURIComponent(
    `Hi ${brand.name}!\n\nI'd love to order, but my address is outside your delivery area:\n${address}\n\nCould we arrange a delivery?\n\nThanks!`,
  );
  return (
    <div className="contact-card" data-testid="delivery-result" tabIndex={-1}>
      <p className="contact-card__title">
        <PinIcon /> Outside Delivery Area
      </p>
      <p>
        {delivery.reason === "outside-area"
          ? `You're ${delivery.miles.toFixed(1)} miles away, outside our ${delivery.radiusMiles}-mile area. `
          : `${DELIVERY_PROBLEMS[delivery.reason]}. `}
        Contact us and we&apos;ll try to arrange a delivery.
      </p>
      <ul>
        <li>
          <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>
        </li>
        <li>
          <a href={`tel:${brand.phone.replace(/[^\d+]/g, "")}`}>{brand.phone}</a>
        </li>
      </ul>
      <a className="button button--primary" href={`mailto:${brand.contactEmail}?subject=${subject}&body=${body}`}>
        <MailIcon /> Send Email
      </a>
    </div>
  );
}

/**
 * The order summary exactly as the server priced it: nothing here computes
 * money. Sold-out lines are listed apart, unpriced, with a button (of the
 * checkout's form) that removes them.
 */
export function OrderSummary({ summary }: { summary: CheckoutSummary }) {
  return (
    <div className="summary">
      <h2>Order Summary</h2>
      <ul className="summary__lines">
        {summary.lines.map((line) => (
          <li key={line.id}>
            <img src={line.image} {...thumbnailSources(line.image, 56)} alt="" width={56} height={42} />
            <span className="summary__name">
              {line.name}
              <span className="summary__qty">
                {line.quantity} × {formatCents(line.priceCents)}
              </span>
              <AllergenLine allergy={line.allergy} compact as="span" />
            </span>
            <span>{formatCents(line.lineTotalCents)}</span>
          </li>
        ))}
        {summary.soldOut.map((line) => (
          <li key={line.id} className="summary__sold-out" data-testid="sold-out-line">
            <img src={line.image} {...thumbnailSources(line.image, 56)} alt="" width={56} height={42} />
            <span className="summary__name">
              {line.name}
              <span className="summary__qty">
                {line.quantity} × <strong>Sold out</strong>
              </span>
            </span>
            <span aria-hidden="true">—</span>
          </li>
        ))}
      </ul>
      {summary.soldOut.length > 0 ? (
        // Inside the checkout's form: the action takes the lines out of the cart and keeps what was typed.
        <button type="submit" name="intent" value="remove-sold-out" className="button button--ghost summary__remove">
          Remove sold-out {summary.soldOut.length === 1 ? "item" : "items"}
        </button>
      ) : null}
      <dl className="summary__totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{formatCents(summary.subtotalCents)}</dd>
        </div>
        {summary.discountCents > 0 ? (
          <div className="summary__discount">
            <dt>Discount ({summary.discountCode})</dt>
            <dd>-{formatCents(summary.discountCents)}</dd>
          </div>
        ) : null}
        <div>
          <dt>
            <TruckIcon /> Shipping
          </dt>
          <dd>{summary.shippingCents > 0 ? formatCents(summary.shippingCents) : summary.shippingWaived ? `Free (${summary.discountCode})` : "Free"}</dd>
        </div>
        <div className="summary__total">
          <dt>Total</dt>
          <dd data-testid="order-total">{formatCents(summary.totalCents)}</dd>
        </div>
      </dl>
      <FreeShippingHint hint={summary.freeShippingHint} />
      <SummaryNotices summary={summary} />
    </div>
  );
}

/** What stands between this cart and an order, said as soon as the page knows it. */
function SummaryNotices({ summary }: { summary: CheckoutSummary }) {
  const notices: { key: string; text: string }[] = [];
  if (summary.cartProblem) notices.push({ key: "cart", text: summary.cartProblem });
  if (summary.discountProblem) notices.push({ key: "code", text: summary.discountProblem });
  if (summary.remainingCents > 0) {
    notices.push({ key: "minimum", text: minimumOrderMessage(summary.minimumCents, summary.remainingCents).description });
  }
  if (summary.zoneMinimumCents !== null && summary.zoneRemainingCents > 0) {
    notices.push({
      key: "zone",
      text: `Your delivery zone requires a minimum order of ${formatCents(summary.zoneMinimumCents)}: add ${formatCents(summary.zoneRemainingCents)} more.`,
    });
  }
  if (notices.length === 0) return null;
  return (
    <div className="notice notice--warning summary__notice" data-testid="summary-notice">
      {notices.map((notice) => (
        <p key={notice.key}>{notice.text}</p>
      ))}
      <a href="/shop?cart=open">Back to the shop</a>
    </div>
  );
}
