import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Await, Link, useLoaderData, useLocation } from "@remix-run/react";
import { Suspense } from "react";
import { brand } from "~/lib/brand";
import { MessageBanner } from "~/components/checkout-parts";
import { CheckIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { longDate } from "~/lib/dates";
import { formatCents } from "~/lib/money";
import { messages } from "~/lib/messages";
import { shortOrderId } from "~/lib/orders";
import { confirmedOrder, knownPaidOrder, type findPaidOrder } from "~/models/orders.server";
import { CHECKOUT_SESSION_ID } from "~/services/stripe.server";
import { describeError } from "~/utils/errors.server";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { privatePageMeta } from "~/lib/seo";

export const meta: MetaFunction = () => privatePageMeta("Your order");

type Outcome =
  | { status: "confirmed"; order: NonNullable<Awaited<ReturnType<typeof findPaidOrder>>> }
  | { status: "not-found" }
  | { status: "error" }
  | { status: "limited" };

async function verify(sessionId: string): Promise<Outcome> {
  try {
    const order = await confirmedOrder(sessionId);
    return order ? { status: "confirmed", order } : { status: "not-found" };
  } catch (error) {
    if (error instanceof Error && "statusCode" in error && error.statusCode === 404) return { status: "not-found" };
    // Briefly: a database error's full message would print the query's arguments.
    console.error(`Verifying Checkout Session ${sessionId} failed: ${describeError(error)}`);
    return { status: "error" };
  }
}

const noStore = { "Cache-Control": "no-store" };

const settled = (outcome: Outcome) => Promise.resolve(outcome);

/**
 * How long the page waits for the check before it sends the spinner first.
 * An order already paid (Stripe's webhook usually comes first) is checked in
 * a few milliseconds, and its page goes out whole, in one piece; a check that
 * asks Stripe streams the spinner, then the outcome.
 */
const WHOLE_PAGE_WAIT_MS = 150;

async function waitBriefly(outcome: Promise<Outcome>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([outcome, new Promise((resolve) => (timer = setTimeout(resolve, WHOLE_PAGE_WAIT_MS)))]);
  clearTimeout(timer);
}

/**
 * Verifies the payment on the server; the page streams a spinner until it
 * knows, when that takes longer than a moment. An order already known to be
 * paid is read in one statement, and nothing is written. Otherwise verifying
 * may ask Stripe, so it counts against the address's "verify" limit (shared
 * with the verify-payment function); over it, the page answers 429 and asks
 * to try again shortly.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  if (!CHECKOUT_SESSION_ID.test(sessionId)) return data({ outcome: settled({ status: "not-found" }) }, { headers: noStore });
  // An order this shop knows is paid is shown at once: no limit counted, nothing written, Stripe not asked.
  const known = await knownPaidOrder(sessionId).catch((error: unknown) => {
    console.error(`Reading the order of Checkout Session ${sessionId} failed: ${describeError(error)}`);
    return null;
  });
  if (known) return data({ outcome: settled({ status: "confirmed", order: known }) }, { headers: noStore });
  let limit;
  try {
    limit = await hitRateLimit("verify", context.clientAddress);
  } catch (error) {
    console.error(`Rate-limiting /order-success for Checkout Session ${sessionId} failed: ${describeError(error)}`);
    return data({ outcome: settled({ status: "error" }) }, { headers: noStore });
  }
  if (!limit.allowed) {
    return data({ outcome: settled({ status: "limited" }) }, { status: 429, headers: { ...noStore, "Retry-After": String(limit.retryAfterSeconds) } });
  }
  const outcome = verify(sessionId);
  await waitBriefly(outcome);
  return data({ outcome }, { headers: noStore });
}

/** The page shows the customer's order: never stored by a cache; a 429 says when to come back. */
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const result = new Headers({ "Cache-Control": loaderHeaders.get("Cache-Control") ?? "no-store" });
  const retryAfter = loaderHeaders.get("Retry-After");
  if (retryAfter) result.set("Retry-After", retryAfter);
  return result;
};

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
  if (outcome.status === "limited") return <Limited />;
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
      {/* A $0 order (a 100% code) took no payment: it is confirmed, not paid. */}
      <MessageBanner message={order.totalCents > 0 ? messages.paymentConfirmed : messages.orderConfirmedNoPayment} />
      <span className="order-card__check" aria-hidden="true">
        <CheckIcon />
      </span>
      <h1 id="result-title">Order Confirmed</h1>
      <dl className="order-card__facts">
        <div>
          <dt>Order ID</dt>
          <dd>{shortOrderId(order.id)}</dd>
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
          <dd>{longDate(order.createdAt)}</dd>
        </div>
        {order.delivery ? (
          <div className="order-card__delivery">
            <dt>Delivery</dt>
            <dd>{order.delivery}</dd>
          </div>
        ) : null}
      </dl>
      <h2>Your items</h2>
      <ul className="order-card__items">
        {order.items.map((item) => (
          <li key={item.name}>
            <span>
              {item.quantity} × {item.name}
            </span>
            <span>{formatCents(item.lineCents)}</span>
          </li>
        ))}
      </ul>
      <h2>What&apos;s Next</h2>
      <ul className="order-card__next">
        <li>You&apos;ll get a confirmation email with your order details.</li>
        {order.delivery ? (
          <li>Your treats are made for your delivery day, {order.delivery}, packed frozen, with tracking information.</li>
        ) : (
          <li>Your treats ship within 24 hours, packed frozen, with tracking information.</li>
        )}
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

function Limited() {
  const { pathname, search } = useLocation();
  return (
    <section className="order-card" aria-labelledby="result-title">
      <MessageBanner message={tooManyRequests} />
      <h1 id="result-title">Please Check Again Shortly</h1>
      <p>
        We couldn&apos;t check this order just now. Please wait a minute and try again. If you were charged, your order is safe; write to {brand.contactEmail}{" "}
        if anything looks wrong.
      </p>
      <Link to={`${pathname}${search}`} reloadDocument className="button button--primary">
        Check Again
      </Link>
    </section>
  );
}
