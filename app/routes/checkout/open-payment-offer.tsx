import { Form } from "@remix-run/react";
import type { OpenPayment } from "~/routes/checkout/checkout.server";
import { formatCents } from "~/lib/money";

/**
 * Back from the payment page's Cancel while its order can still be paid: the
 * page offers to cancel that payment rather than cancelling it on arrival (a
 * link from any site can open `?cancelled=true`). 'Cancel payment' is a form
 * post to the checkout's action, with JavaScript or without; until then the
 * form below is shown as it was, locked, since the cart waits with the order.
 */
export function OpenPaymentOffer({ payment }: { payment: OpenPayment }) {
  return (
    <section className="panel payment-pending" aria-labelledby="open-payment-title" data-testid="open-payment">
      <h2 id="open-payment-title">Your payment is still open</h2>
      <p>
        Order <strong>#{payment.shortId}</strong> · Total <strong>{formatCents(payment.totalCents)}</strong> can still be paid on Stripe&apos;s page.
      </p>
      <p className="panel__hint">To change your order or place it again, cancel this payment first. Your cart and your details stay here.</p>
      <div className="payment-pending__actions">
        <Form method="post" action="/checkout">
          <button type="submit" name="intent" value="cancel-payment" className="button button--primary">
            Cancel payment
          </button>
        </Form>
        {payment.paymentUrl ? (
          <a className="button button--ghost" href={payment.paymentUrl} rel="noreferrer">
            Return to payment
          </a>
        ) : null}
      </div>
    </section>
  );
}
