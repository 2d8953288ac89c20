import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  useActionData,
  useFetcher,
  useLoaderData,
  useNavigate,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { brand } from "~/brand";
import { commitCartSession, getCartSession, loadCartLines } from "~/cart.server";
import { handleCheckout, parseIntent, type CheckoutResult } from "~/checkout.server";
import { DeliveryResult, Field, MessageBanner, OrderSummary } from "~/components/checkout/parts";
import { LockIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { useToast } from "~/components/toaster";
import { discountCentsFor, shippingFor } from "~/lib/cart";
import { readFormData } from "~/lib/forms.server";
import { wantsHtml } from "~/lib/http.server";
import { messages } from "~/lib/messages";
import { publicOrigin } from "~/lib/origin.server";
import { unpaidOrderItems } from "~/orders.server";
import { hitRateLimit, tooManyRequests } from "~/rate-limit.server";

export const meta: MetaFunction = () => [{ title: `Checkout | ${brand.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const cancelled = url.searchParams.get("cancelled") === "true";
  const { session, items } = await getCartSession(request);
  const headers = new Headers();

  // Back from a cancelled payment with an emptied cart: refill it from the unpaid order.
  const cancelledOrder = url.searchParams.get("order");
  if (cancelled && items.length === 0 && cancelledOrder) {
    const restored = await unpaidOrderItems(cancelledOrder.slice(0, 64));
    if (restored.length > 0) {
      items.push(...restored);
      session.set("items", items);
      headers.set("Set-Cookie", await commitCartSession(session));
    }
  }
  const lines = await loadCartLines(items);
  if (lines.length === 0) throw redirect("/shop");
  return json({ lines, cancelled }, { headers });
}

const rateLimitScopes = {
  "apply-discount": "discount",
  "remove-discount": null,
  "check-delivery": "delivery",
  "place-order": "checkout",
} as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const intent = parseIntent(formData);
  if (!intent) return json({ error: "Unknown checkout action." }, { status: 400 });
  const scope = rateLimitScopes[intent];
  if (scope && !(await hitRateLimit(scope, context.clientAddress)).allowed) {
    return json({ error: tooManyRequests.description }, { status: 429 });
  }
  const { session, items } = await getCartSession(request);
  if (items.length === 0) throw redirect("/shop");

  const { result, status } = await handleCheckout(intent, formData, items, publicOrigin(request));
  if (!result.paymentUrl) return json(result, { status });

  // The order is placed: the cart is emptied and the visitor goes to pay.
  session.set("items", []);
  const headers = { "Set-Cookie": await commitCartSession(session) };
  if (wantsHtml(request)) return redirect(result.paymentUrl, { status: 303, headers });
  return json(result, { headers });
}

/**
 * The checkout's own posts never change its lines, and after a placed order
 * the emptied cart would redirect this page to /shop before the payment tab
 * is pointed at Stripe.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === "/checkout" ? false : defaultShouldRevalidate;

type ActionResult = CheckoutResult | { error: string };
const isResult = (data: ActionResult | undefined): data is CheckoutResult => Boolean(data && "values" in data);
const requestError = (data: ActionResult | undefined) =>
  data && "error" in data ? { title: "Please try again", description: data.error, destructive: true } : null;

export default function Checkout() {
  const { lines, cancelled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>({ key: "checkout" });
  const navigate = useNavigate();
  const toast = useToast();
  const paymentTab = useRef<Window | null>(null);
  const [email, setEmail] = useState("");
  const form = useRef<HTMLFormElement>(null);

  const data = isResult(fetcher.data) ? fetcher.data : isResult(actionData) ? actionData : null;
  const values = data?.values;
  const fieldErrors = data?.fieldErrors ?? {};
  const discount = data?.discount ?? null;
  const delivery = data?.delivery ?? null;
  const busy = fetcher.state !== "idle";
  const busyIntent = busy ? fetcher.formData?.get("intent") : null;

  const subtotalCents = lines.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0);
  const discountCents = discount ? discountCentsFor(subtotalCents, discount.basisPoints) : 0;

  // With JavaScript the payment page opens in a new tab and this one goes back to the shop (spec §4).
  useEffect(() => {
    if (fetcher.state !== "idle" || !isResult(fetcher.data)) return;
    const url = fetcher.data.paymentUrl;
    const tab = paymentTab.current;
    paymentTab.current = null;
    if (!url) {
      tab?.close();
      return;
    }
    if (tab) {
      tab.location.href = url;
      navigate("/shop");
    } else {
      window.location.href = url;
    }
  }, [fetcher.state, fetcher.data, navigate]);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const message = isResult(fetcher.data) ? fetcher.data.message : requestError(fetcher.data);
    if (message) toast(message);
  }, [fetcher.state, fetcher.data, toast]);

  // Move focus to the first field the server refused.
  useEffect(() => {
    const first = Object.keys(data?.fieldErrors ?? {})[0];
    if (first) form.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
  }, [data]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === "place-order" && delivery) {
      // Opened now, while the click still counts as the visitor's, so no popup blocker stops it.
      const tab = window.open("about:blank", "_blank");
      if (tab) tab.opener = null;
      paymentTab.current = tab;
    }
  }

  const summaryLines = lines.map((line) => ({ ...line.product, quantity: line.quantity }));
  const addressText = values ? `${values.address}, ${values.city}, ${values.state} ${values.zipCode}` : "";

  return (
    <>
      <PageHeader back={{ to: "/shop", label: "Back to Shop" }} />
      <main id="main" className="container checkout">
        <h1>Checkout</h1>
        {cancelled ? <MessageBanner message={messages.checkoutCancelled} /> : null}
        {/* After a plain post the message is part of the page; with JavaScript it is a toast. */}
        {fetcher.data ? null : <MessageBanner message={isResult(actionData) ? actionData.message : requestError(actionData)} />}

        <fetcher.Form method="post" action="/checkout" className="checkout__grid" noValidate ref={form} onSubmit={handleSubmit}>
          {/* Enter in any field places the order (or, before the delivery check, performs it). */}
          <button type="submit" name="intent" value="place-order" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
          <input type="hidden" name="appliedCode" value={discount?.code ?? ""} />
          <input type="hidden" name="checkedAddress" value={delivery?.addressKey ?? ""} />

          <div className="checkout__main">
            <section className="panel" aria-labelledby="shipping-title">
              <h2 id="shipping-title">Shipping Information</h2>
              <div className="fields">
                <Field name="firstName" label="First name" autoComplete="given-name" defaultValue={values?.firstName ?? ""} errors={fieldErrors} />
                <Field name="lastName" label="Last name" autoComplete="family-name" defaultValue={values?.lastName ?? ""} errors={fieldErrors} />
                <div className="field field--email">
                  <label htmlFor="email">
                    Email<span aria-hidden="true"> *</span>
                  </label>
                  <input
                    id="email"
                    name="email"
                    type="email"
                    autoComplete="email"
                    inputMode="email"
                    defaultValue={values?.email ?? ""}
                    onChange={(event) => setEmail(event.target.value)}
                    aria-required
                    aria-invalid={fieldErrors.email ? true : undefined}
                    aria-describedby={fieldErrors.email ? "email-error" : undefined}
                    maxLength={254}
                  />
                  {fieldErrors.email ? (
                    <p className="field__error" id="email-error">
                      {fieldErrors.email}
                    </p>
                  ) : null}
                </div>
                <Field name="phone" label="Phone" type="tel" autoComplete="tel" inputMode="tel" optional defaultValue={values?.phone ?? ""} errors={fieldErrors} />
                <Field name="address" label="Street address" autoComplete="street-address" defaultValue={values?.address ?? ""} errors={fieldErrors} />
                <Field name="city" label="City" autoComplete="address-level2" defaultValue={values?.city ?? ""} errors={fieldErrors} />
                <Field name="state" label="State" autoComplete="address-level1" defaultValue={values?.state ?? "CA"} errors={fieldErrors} />
                <Field name="zipCode" label="ZIP code" autoComplete="postal-code" inputMode="numeric" defaultValue={values?.zipCode ?? ""} errors={fieldErrors} />
              </div>
            </section>

            <section className="panel" aria-labelledby="delivery-title">
              <h2 id="delivery-title">Delivery Check</h2>
              <p className="panel__hint">We deliver within 25 miles of our West LA kitchen. Check your address before you pay.</p>
              <button type="submit" name="intent" value="check-delivery" className="button button--ghost" disabled={busy}>
                {busyIntent === "check-delivery" ? "Checking…" : delivery ? "Check Again" : "Check Delivery"}
              </button>
              {delivery ? <DeliveryResult delivery={delivery} address={addressText} /> : null}
            </section>

            <section className="panel" aria-labelledby="discount-title">
              <h2 id="discount-title">Discount Code</h2>
              <div className="discount">
                <label htmlFor="code" className="visually-hidden">
                  Discount code
                </label>
                <input
                  id="code"
                  name="code"
                  placeholder="WELCOME10"
                  defaultValue={discount?.code ?? values?.code ?? ""}
                  key={discount?.code ?? "none"}
                  disabled={Boolean(discount)}
                  autoCapitalize="characters"
                  maxLength={64}
                  aria-invalid={fieldErrors.code ? true : undefined}
                  aria-describedby="code-help"
                />
                {discount ? (
                  <button type="submit" name="intent" value="remove-discount" className="button button--ghost" disabled={busy}>
                    Remove
                  </button>
                ) : (
                  <button
                    type="submit"
                    name="intent"
                    value="apply-discount"
                    className="button button--ghost"
                    // The code is checked against the customer's email, so it comes first.
                    disabled={busy || (email === "" && !values?.email)}
                  >
                    Apply
                  </button>
                )}
              </div>
              <p id="code-help" className="panel__hint">
                {discount ? `${discount.code} applied: ${discount.description}.` : "Enter your email first. First order? Try WELCOME10."}
              </p>
            </section>
          </div>

          <aside className="checkout__aside">
            <OrderSummary
              lines={summaryLines}
              subtotalCents={subtotalCents}
              discountCents={discountCents}
              discountCode={discount?.code ?? null}
              shippingCents={shippingFor(subtotalCents)}
            />
            {data?.testCard ? (
              <p className="notice notice--warning" data-testid="test-card-hint">
                Test checkout: pay with card 4242 4242 4242 4242, any future date and any CVC.
              </p>
            ) : null}
            <button type="submit" name="intent" value="place-order" className="button button--primary button--large button--block" disabled={busy}>
              <LockIcon /> {busyIntent === "place-order" ? "Placing order…" : delivery ? "Place Order" : "Check Delivery & Continue"}
            </button>
            <p className="panel__hint checkout__secure">Secure payment by Stripe opens in a new tab.</p>
          </aside>
        </fetcher.Form>
      </main>
    </>
  );
}
