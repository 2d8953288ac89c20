import { data, type ActionFunctionArgs, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { DeliveryDayPicker } from "~/components/delivery-day-picker";
import { MessageBanner } from "~/components/checkout-parts";
import { deliveryWhen, parseDeliveryOption } from "~/lib/delivery-schedule";
import { daysToMoveTo, moveDelivery } from "~/models/delivery-change.server";
import { formText, readFormData } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { PageHeader } from "~/components/page-header";
import { brand } from "~/lib/brand";
import { formatCents } from "~/lib/money";
import { privatePageMeta } from "~/lib/seo";
import { findCustomerOrder } from "~/models/order-page.server";
import { isOrderPageToken } from "~/utils/order-link.server";
import { ORDER_LINK_DAYS, orderLinkExpiresAt } from "~/lib/orders";
import { longDate } from "~/lib/dates";
import { OrderProgress, OrderRefunds, OrderTracking, headlineFor } from "./order-parts";
import styles from "./order-page.css";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customer's data never sits in a shared cache, or in this browser's after they leave. */
const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * The customer's order page, opened from the link in their emails. A wrong,
 * missing or other order's token is answered exactly like an unknown order:
 * the shop's 404 page, so the page never tells whether an order exists. The
 * token is checked before the database is asked.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const order = await orderOfLink(request, params.id);
  // The right link, but past its time (decision 048): the holder learns only the order's number and how to ask.
  const expiresAt = orderLinkExpiresAt(order.placedAt);
  if (expiresAt.getTime() <= Date.now()) {
    return data({ order: null, expired: { shortId: order.shortId, on: expiresAt.toISOString() }, days: null }, { status: 410, headers: PRIVATE });
  }
  // While it can still change, the days it can move to (the root shows the toast of a change just made).
  return data({ order, expired: null, days: await daysToMoveTo(order.id) }, { headers: PRIVATE });
}

/**
 * The order its link names, or the shop's 404 page: a wrong, missing or other
 * order's token is answered exactly like an unknown order, checked before the
 * database is asked.
 */
async function orderOfLink(request: Request, id: string | undefined) {
  const orderId = id ?? "";
  const token = new URL(request.url).searchParams.get("token");
  const order = UUID.test(orderId) && isOrderPageToken(orderId, token) ? await findCustomerOrder(orderId) : null;
  if (!order) {
    // The path only: the query holds the token.
    console.warn(`404 Not Found: ${new URL(request.url).pathname}`);
    throw new Response("Not Found", { status: 404, headers: PRIVATE });
  }
  return order;
}

/**
 * The customer changes their delivery day (issue 39 item 5, decision 100): a
 * same-origin POST of the page's own form (the HTTP edge refuses one from
 * another site), with JavaScript or without. Changed: back to the page with a
 * toast (the email confirms it); refused: the page again, saying why.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const order = await orderOfLink(request, params.id);
  // A link past its time changes nothing (decision 048).
  if (orderLinkExpiresAt(order.placedAt).getTime() <= Date.now()) throw new Response("Gone", { status: 410, headers: PRIVATE });
  const chosen = parseDeliveryOption(formText(await readFormData(request), "deliveryDay", 60));
  if (!chosen) return data({ dayError: "Choose a delivery day." }, { status: 400, headers: PRIVATE });
  const moved = await moveDelivery(order.id, chosen, "customer");
  if (!moved.ok) return data({ dayError: moved.error }, { status: moved.status, headers: PRIVATE });
  const when = deliveryWhen(moved.date, moved.slotLabel);
  throw await redirectWithToast(`${new URL(request.url).pathname}${new URL(request.url).search}`, {
    title: "Delivery Day Changed",
    description: `Your delivery day is now ${when}. We've emailed you to confirm.`,
  });
}

export const headers: HeadersFunction = () => PRIVATE;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const shortId = data?.order?.shortId ?? data?.expired?.shortId;
  return privatePageMeta(shortId ? `Order ${shortId}` : "Your order");
};

export default function OrderPage() {
  const { order, expired, days } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const navigation = useNavigation();
  const [chosen, setChosen] = useState<string | null>(null);
  if (!order) return <ExpiredLink shortId={expired.shortId} on={expired.on} />;
  const headline = headlineFor(order);
  return (
    <>
      <PageHeader back={{ to: "/shop", label: "Shop" }} />
      <main id="main" className="container order-page">
        <section className={`order-hero order-hero--${order.refund ? "refunded" : order.status}`} aria-labelledby="order-title">
          <p className="order-hero__eyebrow">
            Order <span className="order-hero__id">{order.shortId}</span>
          </p>
          <h1 id="order-title">{headline.title}</h1>
          <p className="order-hero__lead">{headline.lead}</p>
          <dl className="order-hero__facts">
            <div>
              <dt>Placed</dt>
              <dd>{longDate(order.placedAt)}</dd>
            </div>
            <div>
              <dt>Delivering to</dt>
              <dd>
                {order.city}, {order.state}
              </dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>{formatCents(order.totalCents)}</dd>
            </div>
            {order.delivery ? (
              <div className="order-hero__delivery">
                <dt>Delivery day</dt>
                <dd data-testid="order-delivery">{order.delivery}</dd>
              </div>
            ) : null}
          </dl>
        </section>
        {refused?.dayError ? <MessageBanner message={{ title: "Delivery Day Not Changed", description: refused.dayError, destructive: true }} /> : null}

        {days ? (
          <section className="order-panel order-day" aria-labelledby="day-title">
            <h2 id="day-title">Change your delivery day</h2>
            <Form method="post" replace preventScrollReset>
              <DeliveryDayPicker dates={days} chosen={chosen ?? order.deliveryOption} error={refused?.dayError} onChoose={setChosen} />
              <button type="submit" className="button button--primary" disabled={navigation.state !== "idle"}>
                {navigation.state === "submitting" ? "Changing…" : "Change delivery day"}
              </button>
            </Form>
          </section>
        ) : null}

        {order.refunds.length > 0 ? <OrderRefunds order={order} /> : null}

        <div className="order-page__grid">
          <div className="order-page__main">
            <section className="order-panel" aria-labelledby="progress-title">
              <h2 id="progress-title">Where your order is</h2>
              <OrderProgress steps={order.steps} />
            </section>
            {order.tracking ? <OrderTracking tracking={order.tracking} /> : null}
          </div>

          <section className="order-panel" aria-labelledby="items-title">
            <h2 id="items-title">Your treats</h2>
            <ul className="order-items">
              {order.items.map((item) => (
                <li key={item.name}>
                  {item.image ? (
                    <img src={item.image.src} alt="" width={item.image.width} height={item.image.height} loading="lazy" decoding="async" />
                  ) : (
                    <span className="order-items__placeholder" aria-hidden="true" />
                  )}
                  <span className="order-items__name">
                    {item.quantity} × {item.name}
                  </span>
                  <span className="order-items__price">{formatCents(item.lineCents)}</span>
                </li>
              ))}
            </ul>
            <dl className="order-totals">
              <div>
                <dt>Subtotal</dt>
                <dd>{formatCents(order.subtotalCents)}</dd>
              </div>
              {order.discountCents ? (
                <div>
                  <dt>Discount</dt>
                  <dd>-{formatCents(order.discountCents)}</dd>
                </div>
              ) : null}
              <div>
                <dt>Shipping</dt>
                <dd>{order.shippingCents ? formatCents(order.shippingCents) : "Free"}</dd>
              </div>
              <div className="order-totals__total">
                <dt>Total</dt>
                <dd>{formatCents(order.totalCents)}</dd>
              </div>
            </dl>
          </section>
        </div>

        <section className="order-help">
          <p>
            Questions about your order? Write to <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a> and mention order {order.shortId}.
          </p>
          <Link to="/shop" className="button button--primary">
            Shop more treats
          </Link>
        </section>
      </main>
    </>
  );
}

/** An order link past its time: the order's number and whom to ask, nothing about the order itself. */
function ExpiredLink({ shortId, on }: { shortId: string; on: string }) {
  return (
    <>
      <PageHeader back={{ to: "/shop", label: "Shop" }} />
      <main id="main" className="container order-page">
        <section className="order-hero order-hero--expired" aria-labelledby="order-title">
          <p className="order-hero__eyebrow">
            Order <span className="order-hero__id">{shortId}</span>
          </p>
          <h1 id="order-title">This order link has expired</h1>
          <p className="order-hero__lead">
            Links to an order page work for {ORDER_LINK_DAYS} days; this one ended on {longDate(on)}. Write to{" "}
            <a href={`mailto:${brand.contactEmail}?subject=${encodeURIComponent(`Order ${shortId}`)}`}>{brand.contactEmail}</a> with order {shortId} and we will
            tell you anything you need about it.
          </p>
          <Link to="/shop" className="button button--primary">
            Shop our treats
          </Link>
        </section>
      </main>
    </>
  );
}
