import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { PlacedOrder } from "~/routes/checkout/checkout.server";
import { formatCents } from "~/lib/money";

/**
 * After Place Order: where payment is, and a way back. With JavaScript the
 * payment page opens in a new tab once the server has accepted the order; if
 * the browser blocks that tab, the link is the way to it. 'Return to checkout'
 * gives the order up and brings back the cart and the filled form.
 */
export function PaymentPending({ placed, openedHere }: { placed: PlacedOrder; openedHere: boolean }) {
  const [blocked, setBlocked] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const opened = useRef(false);

  useEffect(() => {
    heading.current?.focus();
    if (!openedHere || opened.current) return;
    opened.current = true;
    const tab = window.open(placed.paymentUrl, "_blank");
    if (tab) tab.opener = null;
    else setBlocked(true);
  }, [openedHere, placed.paymentUrl]);

  const inNewTab = openedHere && !blocked;
  return (
    <section className="panel payment-pending" aria-labelledby="payment-pending-title" data-testid="payment-pending">
      <h2 id="payment-pending-title" ref={heading} tabIndex={-1}>
        {inNewTab ? "Payment continues in the new tab" : "Your order is waiting for payment"}
      </h2>
      <p>
        Order <strong>#{placed.shortId}</strong> · Total <strong>{formatCents(placed.totalCents)}</strong>
      </p>
      <p className="panel__hint">
        {inNewTab
          ? "Finish paying on Stripe's secure page in the tab we just opened. Your cart is kept with this order until it is paid."
          : "Pay on Stripe's secure page to confirm it. Your cart is kept with this order until it is paid."}
      </p>
      <div className="payment-pending__actions">
        <a
          className={`button ${inNewTab ? "button--ghost" : "button--primary"}`}
          href={placed.paymentUrl}
          target={openedHere ? "_blank" : undefined}
          rel="noreferrer"
        >
          Continue to payment
        </a>
        <Form method="post" action="/checkout">
          <button type="submit" name="intent" value="resume" className="button button--ghost">
            Return to checkout
          </button>
        </Form>
      </div>
    </section>
  );
}
