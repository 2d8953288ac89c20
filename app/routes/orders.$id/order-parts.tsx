import { CheckIcon, TruckIcon } from "~/components/icons";
import type { CustomerOrder, OrderStep } from "~/models/order-page.server";

type Headline = { title: string; lead: string };

const headlines: Record<CustomerOrder["status"], Headline> = {
  pending: { title: "We've got your order", lead: "Thanks! Our kitchen will start on your treats shortly; they ship within 24 hours." },
  preparing: { title: "We're making your treats", lead: "Our kitchen is preparing your order. It will be packed frozen and on its way within 24 hours." },
  shipped: { title: "Your treats are on their way", lead: "Packed frozen in insulated packaging. Make some room in the freezer: delivery takes 2-3 business days." },
  delivered: { title: "Delivered: enjoy!", lead: "Your treats have arrived. Keep them frozen and enjoy them straight from the freezer." },
};

export function headlineFor(order: Pick<CustomerOrder, "status" | "refund">): Headline {
  if (order.refund) return { title: "This order was refunded", lead: "Your money is on its way back to your card." };
  return headlines[order.status];
}

const stepDate = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "America/Los_Angeles" });

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
          <span className="order-steps__date">{step.done ? (step.at ? stepDate(step.at) : "Done") : "Not yet"}</span>
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
