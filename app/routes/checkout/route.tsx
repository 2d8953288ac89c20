import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { commitCartSession, getCartSession, refillCart, type CartSession } from "~/utils/cart-session.server";
import { removeSoldOut } from "~/models/cart.server";
import {
  checkoutOfOpenOrder,
  draftFromOrder,
  draftOf,
  handleCheckout,
  openCheckout,
  openPaymentOf,
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
import { OpenPaymentOffer } from "~/routes/checkout/open-payment-offer";
import { PageHeader } from "~/components/page-header";
import { useToast } from "~/components/toaster";
import { isTakenPayment, shortOrderId } from "~/lib/orders";
import { draftFromForm, dropDraft, readDraft, saveDraft } from "~/utils/checkout-draft.server";
import { BUSY_HEADERS, isTransactionConflict, shouldRetryLater } from "~/utils/db.server";
import { describeError } from "~/utils/errors.server";
import { readFormData } from "~/utils/forms.server";
import { wantsHtml } from "~/utils/http.server";
import { messages, type Message } from "~/lib/messages";
import { isRequestFailed, sendOrFail, type RequestFailed } from "~/lib/request-failure";
import { publicOrigin } from "~/utils/origin.server";
import { closeOrderPayment, findPendingOrder, type PendingOrder } from "~/models/orders.server";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { privatePageMeta } from "~/lib/seo";

export const meta: MetaFunction = () => privatePageMeta("Checkout");

/**
 * The checkout. Besides the form it shows the order this browser is paying
 * for in another tab. Back from the payment page's Cancel (`?cancelled=true`)
 * it shows the cart and the filled form and offers to cancel that order's
 * payment; only the checkout's `cancel-payment` post (or 'Return to
 * checkout', or Stripe's expiry) gives the order up, and then the cart and
 * the form come back, both kept with the order on the server. A GET never
 * changes an order: any site can link to it with the visitor's cookie
 * (decision 041). What was typed survives a refresh in the checkout's draft
 * cookie (decision 040).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const cancelled = new URL(request.url).searchParams.get("cancelled") === "true";
  const { session, items: cartItems } = await getCartSession(request);
  let items = cartItems;
  const pendingId = session.get("pendingOrderId");
  const restoreId = session.get("restoreOrderId");
  // Personal data, and a page that changes once an order is placed: never kept by a cache (nor the back button's).
  const headers = new Headers({ "Cache-Control": "no-store" });

  let restoreFrom: PendingOrder | null = null;
  if (cancelled && pendingId) {
    const pending = await findPendingOrder(pendingId);
    const confirmation = pending && confirmationOf(pending);
    if (confirmation) throw redirect(confirmation);
    if (pending?.paymentStatus === "unpaid") {
      // Still payable: shown with the offer to cancel it, the cart still waiting with it.
      const checkout = await checkoutOfOpenOrder(pending, publicOrigin());
      return data({ placed: null, checkout, cancelled, openPayment: openPaymentOf(pending), constraints: shippingConstraints }, { headers });
    }
    // Given up already (Stripe expired its page, another tab cancelled it): the cart and the form come back.
    restoreFrom = pending;
    session.unset("pendingOrderId");
  } else if (restoreId) {
    restoreFrom = await findPendingOrder(restoreId);
  }
  if (restoreFrom) {
    items = refillCart(session, items, restoreFrom.items);
    session.unset("pendingOrderId");
  }
  headers.append("Set-Cookie", await commitCartSession(session));

  if (items.length === 0) {
    const pending = pendingId && !restoreFrom ? await findPendingOrder(pendingId) : null;
    if (pending?.paymentStatus !== "unpaid" || !pending.stripeSessionUrl) throw redirect("/shop", { headers });
    const placed: PlacedOrder = {
      orderId: pending.id,
      shortId: shortOrderId(pending.id),
      totalCents: pending.totalCents,
      paymentUrl: pending.stripeSessionUrl,
    };
    return data({ placed, checkout: null, cancelled, openPayment: null, constraints: shippingConstraints }, { headers });
  }
  const draft = restoreFrom ? draftFromOrder(restoreFrom) : await readDraft(request);
  const checkout = draft ? await resumeCheckout(draft, items, publicOrigin()) : await openCheckout(items);
  // The refilled form is kept for the next refresh too (the order's note is read once).
  if (restoreFrom) headers.append("Set-Cookie", await saveDraft(draftOf(checkout)));
  return data({ placed: null, checkout, cancelled, openPayment: null, constraints: shippingConstraints }, { headers });
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

/** The spec's message for an action that failed on the way (network, the shop, no answer); a clear one where it names none. */
const failedRequestMessages: Record<string, Message> = {
  "apply-discount": messages.discountCheckFailed,
  "check-delivery": messages.deliveryError,
  "place-order": messages.checkoutError,
};

/** Where an order is confirmed, once it is paid. */
function confirmationOf(order: Pick<PendingOrder, "paymentStatus" | "stripeSessionId">) {
  return order.stripeSessionId && isTakenPayment(order.paymentStatus) ? `/order-success?session_id=${order.stripeSessionId}` : null;
}

/** Where this browser's last order is confirmed, once it is paid: a stale tab is sent there instead of to an empty shop. */
async function paidOrderConfirmation(session: CartSession) {
  const placedId = session.get("placedOrderId");
  const order = placedId ? await findPendingOrder(placedId) : null;
  return order && confirmationOf(order);
}

const cancelFailed = "We could not cancel the payment just now. Please try again in a moment.";

/**
 * 'Cancel payment', offered after the payment page's Cancel: gives up the
 * order this browser is paying for (its page closed at Stripe first, so it
 * can no longer be paid) and brings back the cart and the form. A payment
 * that went through meanwhile goes to its confirmation; a page Stripe could
 * not close keeps the order, and the customer is told to try again.
 */
async function cancelPayment(session: CartSession) {
  const pendingId = session.get("pendingOrderId");
  const closed = pendingId ? await closeOrderPayment(pendingId, "cancelled") : null;
  if (pendingId && closed && !closed.ok) {
    const order = closed.reason === "paid" ? await findPendingOrder(pendingId) : null;
    // Paid at Stripe but not yet here: the confirmation page asks Stripe and records it.
    if (order?.stripeSessionId) return redirect(`/order-success?session_id=${order.stripeSessionId}`, 303);
    return data({ error: cancelFailed }, { status: 502 });
  }
  if (pendingId) {
    session.unset("pendingOrderId");
    session.flash("restoreOrderId", pendingId);
  }
  return redirect("/checkout?cancelled=true", { status: 303, headers: { "Set-Cookie": await commitCartSession(session) } });
}

/** The checkout's answer when the database is busy: the spec's message for what was sent; nothing was done. */
type Busy = { busy: true; message: Message };
const isBusy = (data: unknown): data is Busy => typeof data === "object" && data !== null && "busy" in data;

/**
 * The checkout's posts. When no database connection can be had in time, or
 * the database is not there (a restart, a failover: shouldRetryLater),
 * whatever the post was: 503 with Retry-After and the spec's message for it,
 * and the form as sent kept in the draft, so a refresh or the next try finds
 * it; the page (with JavaScript) keeps it anyway.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  try {
    return await answerCheckoutPost(request, context, formData);
  } catch (error) {
    if (!shouldRetryLater(error)) throw error;
    const intent = parseIntent(formData);
    console.warn(`Checkout ${intent ?? "post"} could not reach the database (busy or away): ${describeError(error)}`);
    const headers = new Headers(BUSY_HEADERS);
    // Only the form's own posts carry the fields ('Return to checkout' carries none).
    if (intent) headers.append("Set-Cookie", await saveDraft(draftFromForm(formData)));
    const busy: Busy = { busy: true, message: (intent && failedRequestMessages[intent]) || messages.requestFailed };
    return data(busy, { status: 503, headers });
  }
}

async function answerCheckoutPost(request: Request, context: ActionFunctionArgs["context"], formData: FormData) {
  const { session, items } = await getCartSession(request);

  // 'Return to checkout' from the page that waits for payment: give that order up, refill cart and form.
  if (formData.get("intent") === "resume") {
    const pendingId = session.get("pendingOrderId");
    const closed = pendingId ? await closeOrderPayment(pendingId, "cancelled") : null;
    if (pendingId && (closed?.ok || closed?.reason !== "paid")) {
      session.unset("pendingOrderId");
      session.flash("restoreOrderId", pendingId);
    } else {
      // Paid meanwhile, in the payment tab: say so rather than show an empty shop.
      const confirmation = await paidOrderConfirmation(session);
      if (confirmation) return redirect(confirmation, 303);
    }
    return redirect("/checkout", { status: 303, headers: { "Set-Cookie": await commitCartSession(session) } });
  }

  if (formData.get("intent") === "cancel-payment") return cancelPayment(session);

  const intent = parseIntent(formData);
  if (!intent) return data({ error: "Unknown checkout action." }, { status: 400 });
  // Another tab placed this cart's order: this one is shown that order, waiting for payment or paid.
  if (items.length === 0) throw redirect((await paidOrderConfirmation(session)) ?? "/checkout", 303);
  const scope = rateLimitScopes[intent];
  if (scope && !(await hitRateLimit(scope, context.clientAddress)).allowed) {
    // Refused, but nothing typed is lost: the form comes back as it was sent.
    const { state } = await handleCheckout("refresh", formData, items, publicOrigin());
    return data({ ...state, message: tooManyRequests }, { status: 429 });
  }

  let cartItems = items;
  const headers = new Headers();
  if (intent === "remove-sold-out") {
    cartItems = (await removeSoldOut(items)).items;
    session.set("items", cartItems);
    headers.append("Set-Cookie", await commitCartSession(session));
    if (cartItems.length === 0) throw redirect("/shop", { headers });
  }

  let answer: Awaited<ReturnType<typeof handleCheckout>>;
  try {
    answer = await handleCheckout(intent, formData, cartItems, publicOrigin());
  } catch (error) {
    if (shouldRetryLater(error)) throw error;
    // The shop failed half-way (say, a query that failed, or a race lost on every try: 409): the form comes back as it was sent, with the spec's message.
    const conflict = isTransactionConflict(error);
    if (conflict) console.warn(`Checkout ${intent} lost a race on every try`, describeError(error));
    else console.error(`Checkout ${intent} failed`, describeError(error));
    const { state } = await handleCheckout("refresh", formData, cartItems, publicOrigin());
    headers.append("Set-Cookie", await saveDraft(draftOf(state)));
    return data({ ...state, message: failedRequestMessages[intent] ?? messages.requestFailed }, { status: conflict ? 409 : 500, headers });
  }
  const { state, outcome } = answer;
  if (!state.placed) {
    headers.append("Set-Cookie", await saveDraft(draftOf(state)));
    return data(state, { status: statusFor[outcome], headers });
  }

  // The order is placed: the cart waits with it while the customer pays, and the order now holds the details typed.
  session.set("items", []);
  session.set("pendingOrderId", state.placed.orderId);
  session.set("placedOrderId", state.placed.orderId);
  headers.append("Set-Cookie", await commitCartSession(session));
  headers.append("Set-Cookie", await dropDraft());
  if (wantsHtml(request)) return redirect(state.placed.paymentUrl, { status: 303, headers });
  return data(state, { headers });
}

/** A plain form post the database was too busy for keeps its Retry-After when the page itself could be made. */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return { "Cache-Control": loaderHeaders.get("Cache-Control") ?? "no-store", ...(retryAfter && { "Retry-After": retryAfter }) };
};

/**
 * The checkout's own posts answer with the whole new state (or how they
 * failed); nothing to reload. A post answered by a redirect (another tab
 * placed this cart's order) reloads the page like any navigation.
 */
const pageIntents = new Set(["resume", "cancel-payment"]);
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, formData, actionResult, defaultShouldRevalidate }) =>
  formAction === "/checkout" && !pageIntents.has(String(formData?.get("intent"))) && actionResult !== undefined ? false : defaultShouldRevalidate;

/**
 * With JavaScript: a post that gets no answer (network, a failed shop, no answer
 * in time) comes back as a RequestFailed with the intent that was sent, and the
 * page keeps the form as it stood and says what failed.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const intent = String((await request.clone().formData()).get("intent") ?? "");
  const answer = await sendOrFail(() => serverAction<typeof action>());
  return isRequestFailed(answer) ? { ...answer, intent } : answer;
}

type ActionResult = CheckoutState | Busy | { error: string } | (RequestFailed & { intent: string });
const isState = (data: ActionResult | undefined): data is CheckoutState => Boolean(data && "values" in data);
function answerMessage(data: ActionResult | undefined): Message | null {
  if (!data) return null;
  if (isState(data)) return data.message;
  if (isBusy(data)) return data.message;
  if (isRequestFailed(data)) return failedRequestMessages[data.intent] ?? messages.requestFailed;
  return { title: "Please try again", description: data.error, destructive: true };
}

export default function Checkout() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof clientAction>();
  const fetcher = useFetcher<typeof clientAction>({ key: "checkout" });
  const toast = useToast();

  // A fetcher keeps its last answer across navigations; once the loader has
  // answered again (after 'Return to checkout'), that answer is out of date.
  const seen = useRef({ loaded, fetcherData: fetcher.data, state: null as CheckoutState | null });
  if (seen.current.loaded !== loaded) seen.current = { loaded, fetcherData: fetcher.data, state: null };
  const fetcherData = fetcher.data === seen.current.fetcherData ? undefined : fetcher.data;

  // The last state the server answered: an answer that is not one (a failed request) leaves the form as it stands.
  const answered = isState(fetcherData) ? fetcherData : isState(actionData) ? actionData : null;
  if (answered) seen.current.state = answered;
  const latest = seen.current.state ?? loaded.checkout;
  const placed = latest?.placed ?? loaded.placed;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcherData) return;
    const message = answerMessage(fetcherData);
    if (message) toast(message);
  }, [fetcher.state, fetcherData, toast]);

  // Requirements §7: the checkout asks which integrations are configured and logs the answer.
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
            {fetcherData ? null : <MessageBanner message={actionData ? answerMessage(actionData) : latest.message} />}
            {loaded.openPayment ? <OpenPaymentOffer payment={loaded.openPayment} /> : null}
            <CheckoutForm state={latest} constraints={loaded.constraints} locked={Boolean(loaded.openPayment)} />
          </>
        ) : null}
      </main>
    </>
  );
}
