import { CheckIcon, TruckIcon } from "~/components/icons";
import { dayAndTime, longDate } from "~/lib/dates";
import { formatCents } from "~/lib/money";
import { ORDER_STATUS_COPY } from "~/lib/orders";
import type { CustomerOrder, OrderStep } from "~/models/order-page.server";

export function headlineFor(order: Pick<CustomerOrder, "status" | "refund">): { title: string; lead: string } {
  // Cancelled says so first (its lead tells of the refund); a refund alone, then the status.
  if (order.status === "cancelled") return ORDER_STATUS_COPY.cancelled;
  if (order.refund) return { title: "This order was refunded", lead: "Your money is on its way back to your card." };
  return ORDER_STATUS_COPY[order.status];
}

/** Placed, paid, preparing, shipped, delivered: the steps done so far, with when. */
export function OrderProgress({ steps }: { steps: OrderStep[] }) {
  const current = steps.filter((step) => step.done).at(-1)?.key;
  return (
    <ol className="order-steps">
      {steps.map((step) => (
        <li
          key={step.key}
          className={`order-steps__step${step.done ? " order-steps__step--done" : ""}`}
          aria-current={step.key === current ? "step" : undefined}
        >
          <span className="order-steps__dot" aria-hidden="true">
            {step.done ? <CheckIcon /> : null}
          </span>
          <span className="order-steps__label">{step.label}</span>
          <span className="order-steps__date">{step.done ? (step.at ? dayAndTime(step.at) : "Done") : "Not yet"}</span>
        </li>
      ))}
    </ol>
  );
}

export function OrderTracking({ tracking }: { tracking: NonNullable<CustomerOrder["tracking"]> }) {
  return (
    <section className="order-panel order-panel--tracking" aria-labelledby="tracking-title">
      <h2 id="tracking-title">
        <TruckIcon /> Tracking
      </h2>
      <dl className="order-tracking">
        <div>
          <dt>Carrier</dt>
          <dd>{tracking.carrier}</dd>
        </div>
        {tracking.number ? (
          <div>
            <dt>Tracking number</dt>
            <dd className="order-tracking__number">{tracking.number}</dd>
          </div>
        ) : null}
      </dl>
      {tracking.url ? (
        // noreferrer: the carrier never sees this page's address, which holds the order's token.
        <a className="button button--primary" href={tracking.url} target="_blank" rel="noopener noreferrer">
          Track with {tracking.carrier}
        </a>
      ) : tracking.carrier === "Local courier" ? (
        <p className="order-tracking__note">Our own Los Angeles courier brings it, straight from the kitchen.</p>
      ) : null}
    </section>
  );
}

/**
 * What came back to the customer's card: each refund with its date and the
 * items it was for, and, when there were several, how much in all. Part of an
 * order refunded says the rest stands.
 */
export function OrderRefunds({ order }: { order: Pick<CustomerOrder, "refund" | "refunds" | "refundedCents" | "totalCents"> }) {
  const whole = order.refund !== null;
  return (
    <section className="order-panel order-panel--refund" aria-labelledby="refund-title">
      <h2 id="refund-title">{whole ? "Refunded" : "Partly refunded"}</h2>
      {order.refunds.map((refund, index) => (
        <p key={`${refund.at}-${index}`}>
          We refunded {formatCents(refund.amountCents)}
          {refund.lines.length > 0 ? ` for ${refund.lines.map((line) => `${line.quantity} × ${line.name}`).join(", ")}` : ""} to the card you paid with on{" "}
          {longDate(refund.at)}.
        </p>
      ))}
      {order.refunds.length > 1 ? (
        <p>
          <strong>
            {formatCents(order.refundedCents)} of {formatCents(order.totalCents)} refunded in all.
          </strong>
        </p>
      ) : null}
      <p>Banks usually show a refund within 5-10 business days.{whole ? "" : " The rest of your order stands as it was."}</p>
    </section>
  );
}
