import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { commitCartSession, getCartSession, refillCart } from "~/utils/cart-session.server";
import { removeSoldOut } from "~/models/cart.server";
import {
  handleCheckout,
  openCheckout,
  parseIntent,
  resumeCheckout,
  shippingConstraints,
  type CheckoutOutcome,
  type CheckoutState,
  type PlacedOrder,
} from "~/routes/checkout/checkout.server";
import { CheckoutForm } from "~/routes/checkout/checkout-form";
import { MessageBanner } from "~/components/checkout-parts";
import { PaymentPending } from "~/routes/checkout/payment-pending";
import { PageHeader } from "~/components/page-header";
import { useToast } from "~/components/toaster";
import { shortOrderId } from "~/lib/orders";
import { readFormData } from "~/utils/forms.server";
import { wantsHtml } from "~/utils/http.server";
import { messages } from "~/lib/messages";
import { publicOrigin } from "~/utils/origin.server";
import { closeOrderPayment, findPendingOrder, type PendingOrder } from "~/models/orders.server";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { privatePageMeta } from "~/lib/seo";

export const meta: MetaFunction = () => privatePageMeta("Checkout");

/**
 * The checkout. Besides the form it shows the order this browser is paying
 * for in another tab, and after Cancel on the payment page (or 'Return to
 * checkout') it gives the order up and brings back the cart and the filled
 * form, both kept with the order on the server.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const cancelled = new URL(request.url).searchParams.get("cancelled") === "true";
  const { session, items: cartItems } = await getCartSession(request);
  let items = cartItems;
  const pendingId = session.get("pendingOrderId");
  const restoreId = session.get("restoreOrderId");

  let restoreFrom: PendingOrder | null = null;
  if (cancelled && pendingId) {
    const closed = await closeOrderPayment(pendingId, "cancelled");
    restoreFrom = await findPendingOrder(pendingId);
    if (!closed.ok && closed.reason === "paid" && restoreFrom?.stripeSessionId) throw redirect(`/order-success?session_id=${restoreFrom.stripeSessionId}`);
    session.unset("pendingOrderId");
  } else if (restoreId) {
    restoreFrom = await findPendingOrder(restoreId);
  }
  if (restoreFrom) {
    items = refillCart(session, items, restoreFrom.items);
    session.unset("pendingOrderId");
  }
  // Personal data, and a page that changes once an order is placed: never kept by a cache (nor the back button's).
  const headers = { "Set-Cookie": await commitCartSession(session), "Cache-Control": "no-store" };

  if (items.length === 0) {
    const pending = pendingId && !restoreFrom ? await findPendingOrder(pendingId) : null;
    if (pending?.paymentStatus !== "unpaid" || !pending.stripeSessionUrl) throw redirect("/shop", { headers });
    const placed: PlacedOrder = {
      orderId: pending.id,
      shortId: shortOrderId(pending.id),
      totalCents: pending.totalCents,
      paymentUrl: pending.stripeSessionUrl,
    };
    return json({ placed, checkout: null, cancelled, constraints: shippingConstraints }, { headers });
  }
  const checkout = restoreFrom ? await resumeCheckout(restoreFrom, items, publicOrigin()) : await openCheckout(items);
  return json({ placed: null, checkout, cancelled, constraints: shippingConstraints }, { headers });
}

const rateLimitScopes = {
  "apply-discount": "discount",
  "remove-discount": null,
  "check-delivery": "delivery",
  "place-order": "checkout",
  refresh: null,
  "remove-sold-out": null,
} as const;

const statusFor: Record<CheckoutOutcome, number> = { ok: 200, invalid: 400, "provider-failed": 502 };

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const { session, items } = await getCartSession(request);

  // 'Return to checkout' from the page that waits for payment: give that order up, refill cart and form.
  if (formData.get("intent") === "resume") {
    const pendingId = session.get("pendingOrderId");
    const closed = pendingId ? await closeOrderPayment(pendingId, "cancelled") : null;
    if (pendingId && (closed?.ok || closed?.reason !== "paid")) {
      session.unset("pendingOrderId");
      session.flash("restoreOrderId", pendingId);
    }
    return redirect("/checkout", { status: 303, headers: { "Set-Cookie": await commitCartSession(session) } });
  }

  const intent = parseIntent(formData);
  if (!intent) return json({ error: "Unknown checkout action." }, { status: 400 });
  if (items.length === 0) throw redirect("/shop");
  const scope = rateLimitScopes[intent];
  if (scope && !(await hitRateLimit(scope, context.clientAddress)).allowed) {
    // Refused, but nothing typed is lost: the form comes back as it was sent.
    const { state } = await handleCheckout("refresh", formData, items, publicOrigin());
    return json({ ...state, message: tooManyRequests }, { status: 429 });
  }

  let cartItems = items;
  const cartHeaders = new Headers();
  if (intent === "remove-sold-out") {
    cartItems = (await removeSoldOut(items)).items;
    session.set("items", cartItems);
    cartHeaders.set("Set-Cookie", await commitCartSession(session));
    if (cartItems.length === 0) throw redirect("/shop", { headers: cartHeaders });
  }

  const { state, outcome } = await handleCheckout(intent, formData, cartItems, publicOrigin());
  if (!state.placed) return json(state, { status: statusFor[outcome], headers: cartHeaders });

  // The order is placed: the cart waits with it while the customer pays.
  session.set("items", []);
  session.set("pendingOrderId", state.placed.orderId);
  const headers = { "Set-Cookie": await commitCartSession(session) };
  if (wantsHtml(request)) return redirect(state.placed.paymentUrl, { status: 303, headers });
  return json(state, { headers });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({ "Cache-Control": loaderHeaders.get("Cache-Control") ?? "no-store" });

/** The checkout's own posts answer with the whole new state; nothing to reload. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, formData, defaultShouldRevalidate }) =>
  formAction === "/checkout" && formData?.get("intent") !== "resume" ? false : defaultShouldRevalidate;

type ActionResult = CheckoutState | { error: string };
const isState = (data: ActionResult | undefined): data is CheckoutState => Boolean(data && "values" in data);
const requestError = (data: ActionResult | undefined) =>
  data && "error" in data ? { title: "Please try again", description: data.error, destructive: true } : null;

export default function Checkout() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>({ key: "checkout" });
  const toast = useToast();

  // A fetcher keeps its last answer across navigations; once the loader has
  // answered again (after 'Return to checkout'), that answer is out of date.
  const seen = useRef({ loaded, fetcherData: fetcher.data });
  if (seen.current.loaded !== loaded) seen.current = { loaded, fetcherData: fetcher.data };
  const fetcherData = fetcher.data === seen.current.fetcherData ? undefined : fetcher.data;

  const latest = isState(fetcherData) ? fetcherData : isState(actionData) ? actionData : loaded.checkout;
  const placed = latest?.placed ?? loaded.placed;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcherData) return;
    const message = isState(fetcherData) ? fetcherData.message : requestError(fetcherData);
    if (message) toast(message);
  }, [fetcher.state, fetcherData, toast]);

  // Spec §7: the checkout asks which integrations are configured and logs the answer.
  useEffect(() => {
    fetch("/functions/v1/check-secrets", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })
      .then((response) => response.json())
      .then((result: unknown) => console.info("check-secrets", result))
      .catch((error: unknown) => console.warn("check-secrets failed", error));
  }, []);

  return (
    <>
      <PageHeader back={{ to: "/shop", label: "Back to Shop" }} />
      <main id="main" className="container checkout">
        <h1>Checkout</h1>
        {loaded.cancelled ? <MessageBanner message={messages.checkoutCancelled} /> : null}
        {placed ? (
          <PaymentPending placed={placed} openedHere={Boolean(latest?.placed)} />
        ) : latest ? (
          <>
            {/* After a plain post the message is part of the page; with JavaScript it is a toast. */}
            {fetcherData ? null : (
              <MessageBanner message={actionData ? (isState(actionData) ? actionData.message : requestError(actionData)) : latest.message} />
            )}
            <CheckoutForm state={latest} constraints={loaded.constraints} />
          </>
        ) : null}
      </main>
    </>
  );
}
