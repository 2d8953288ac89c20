import { defer, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Await, Link, useLoaderData } from "@remix-run/react";
import { Suspense } from "react";
import { brand } from "~/brand";
import { MessageBanner } from "~/components/checkout/parts";
import { CheckIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { formatCents } from "~/lib/money";
import { messages } from "~/lib/messages";
import { findPaidOrder, verifyPayment } from "~/orders.server";
import { describeStripeError } from "~/payments.server";

export const meta: MetaFunction = () => [{ title: `Your order | ${brand.name}` }, { name: "robots", content: "noindex" }];

type Outcome =
  | { status: "confirmed"; order: NonNullable<Awaited<ReturnType<typeof findPaidOrder>>> }
  | { status: "not-found" }
  | { status: "error" };

async function verify(sessionId: string): Promise<Outcome> {
  try {
    const { verified, orderId } = await verifyPayment(sessionId);
    const order = verified && orderId ? await findPaidOrder(orderId) : null;
    return order ? { status: "confirmed", order } : { status: "not-found" };
  } catch (error) {
    if (error instanceof Error && "statusCode" in error && error.statusCode === 404) return { status: "not-found" };
    console.error(`Verifying Checkout Session ${sessionId} failed: ${describeStripeError(error)}`);
    return { status: "error" };
  }
}

/** Verifies the payment on the server; the page streams a spinner until it knows. */
export function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  const outcome: Promise<Outcome> = /^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)
    ? verify(sessionId)
    : Promise.resolve({ status: "not-found" });
  return defer({ outcome }, { headers: { "Cache-Control": "no-store" } });
}

export default function OrderSuccess() {
  const { outcome } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader />
      <main id="main" className="container order-result">
        <Suspense
          fallback={
            <div className="verifying" role="status">
              <span className="spinner" aria-hidden="true" />
              <p>Verifying your payment…</p>
            </div>
          }
        >
          <Await resolve={outcome}>{(resolved) => <Outcome outcome={resolved as Outcome} />}</Await>
        </Suspense>
      </main>
    </>
  );
}

function Outcome({ outcome }: { outcome: Outcome }) {
  if (outcome.status !== "confirmed") {
    return (
      <section className="order-card" aria-labelledby="result-title">
        {outcome.status === "error" ? <MessageBanner message={messages.verificationError} /> : null}
        <h1 id="result-title">Order Not Found</h1>
        <p>We couldn&apos;t find a paid order for this link. If you were charged, write to {brand.contactEmail} and we&apos;ll sort it out.</p>
        <Link to="/shop" className="button button--primary">
          Continue Shopping
        </Link>
      </section>
    );
  }
  const { order } = outcome;
  return (
    <section className="order-card" aria-labelledby="result-title">
      <MessageBanner message={messages.paymentConfirmed} />
      <span className="order-card__check" aria-hidden="true">
        <CheckIcon />
      </span>
      <h1 id="result-title">Order Confirmed</h1>
      <dl className="order-card__facts">
        <div>
          <dt>Order ID</dt>
          <dd>{order.id.slice(0, 8)}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{order.email}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>{formatCents(order.totalCents)}</dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd>{new Date(order.createdAt).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "America/Los_Angeles" })}</dd>
        </div>
      </dl>
      <h2>Your items</h2>
      <ul className="order-card__items">
        {order.items.map((item) => (
          <li key={item.name}>
            <span>
              {item.quantity} × {item.name}
            </span>
            <span>{formatCents(item.unitPriceCents * item.quantity)}</span>
          </li>
        ))}
      </ul>
      <h2>What&apos;s Next</h2>
      <ul className="order-card__next">
        <li>You&apos;ll get a confirmation email with your order details.</li>
        <li>Your treats ship within 24 hours, packed frozen, with tracking information.</li>
      </ul>
      <div className="order-card__actions">
        <Link to="/shop" className="button button--primary">
          Continue Shopping
        </Link>
        <Link to="/" className="button button--ghost">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
