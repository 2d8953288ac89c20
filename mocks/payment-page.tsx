import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { env } from "../app/utils/env.server";
import { readFormData } from "../app/utils/forms.server";
import { formatCents } from "../app/lib/money";
import { publicOrigin } from "../app/utils/origin.server";
import { testWebhookSignature } from "../app/services/stripe.server";
import { findSession as findStandInSession, paySession } from "./payment-stand-in.server";
import { TEST_CARDS } from "./test-scenarios";
import { brand } from "../app/lib/brand";
import { privatePageMeta } from "../app/lib/seo";
import { describeError } from "../app/utils/errors.server";

/**
 * The demo's stand-in for Stripe's hosted payment page (MOCKS=true only).
 * 4242 4242 4242 4242 pays and sends Stripe's signed webhook to this shop;
 * the other test cards of mocks/test-scenarios.ts are refused as Stripe
 * refuses them (declined, insufficient funds, a processing error); Cancel
 * returns to the shop's cancel URL.
 * A $0 order (a 100% code) asks for no card, as Stripe's no-cost orders do:
 * the customer only completes it.
 */

export const meta: MetaFunction = () => privatePageMeta("Test payment");

async function findSession(sessionId: string | undefined) {
  if (!env.MOCKS) throw new Response("Not Found", { status: 404 });
  const session = sessionId ? await findStandInSession(sessionId) : null;
  if (!session) throw new Response("Not Found", { status: 404 });
  return session;
}

export async function loader({ params }: LoaderFunctionArgs) {
  const session = await findSession(params.sessionId);
  return {
    email: session.customer_email,
    lines: session.line_items.map((line) => ({ ...line, amountCents: line.unit_amount * line.quantity })),
    discount: session.total_details.amount_discount,
    shipping: session.total_details.amount_shipping,
    total: session.amount_total,
    cancelUrl: session.cancel_url,
    open: session.status === "open",
    needsCard: session.amount_total > 0,
  };
}

/** Paid or expired: the words the page itself shows. */
const pageClosed = () => data({ error: "This payment page is no longer open." }, { status: 400 });

export async function action({ request, params }: ActionFunctionArgs) {
  const session = await findSession(params.sessionId);
  if (session.status !== "open") return pageClosed();
  const card = String((await readFormData(request)).get("card") ?? "").replace(/\D/g, "");
  if (session.amount_total > 0) {
    const test = TEST_CARDS[card as keyof typeof TEST_CARDS] as (typeof TEST_CARDS)[keyof typeof TEST_CARDS] | undefined;
    if (!test) return data({ error: "Use a test card: 4242 4242 4242 4242 pays (the README lists the cards that fail)." }, { status: 400 });
    if ("message" in test) return data({ error: test.message }, { status: 402 });
  }

  // Paid or expired since it was read above, perhaps by another tab on another server instance.
  const paid = await paySession(session.id);
  if (!paid) return pageClosed();
  const payload = JSON.stringify({
    id: `evt_test_${session.id.slice(-16)}`,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: { object: paid },
  });
  const signature = testWebhookSignature(payload);
  try {
    await fetch(`${publicOrigin()}/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
      body: payload,
    });
  } catch (error) {
    // As with real Stripe, a missed webhook is covered by verify-payment on the success page.
    console.warn(`The payment stand-in could not deliver its webhook: ${describeError(error)}`);
  }
  return redirect(paid.success_url.replace("{CHECKOUT_SESSION_ID}", paid.id));
}

export default function MockPaymentPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const refusal = actionData?.error ? (
    <p className="notice notice--error" role="alert">
      {actionData.error}
    </p>
  ) : null;
  return (
    <main className="mock-pay" id="main">
      <div className="mock-pay__card">
        <p className="mock-pay__badge">Test mode: no real payment is taken</p>
        <h1>Pay {brand.name}</h1>
        <p className="mock-pay__total">{formatCents(data.total)}</p>
        <ul className="mock-pay__lines">
          {data.lines.map((line) => (
            <li key={line.name}>
              <span>
                {line.quantity} × {line.name}
              </span>
              <span>{formatCents(line.amountCents)}</span>
            </li>
          ))}
          {data.discount ? (
            <li>
              <span>Discount</span>
              <span>-{formatCents(data.discount)}</span>
            </li>
          ) : null}
          <li>
            <span>Shipping</span>
            <span>{data.shipping ? formatCents(data.shipping) : "Free"}</span>
          </li>
        </ul>
        {data.open && !data.needsCard ? (
          <Form method="post" className="mock-pay__form">
            <p>Ordering as {data.email}. Your discount covers the whole order: no payment is needed.</p>
            {refusal}
            <button type="submit" className="button button--primary button--block" disabled={busy}>
              {busy ? "Completing…" : "Complete order"}
            </button>
          </Form>
        ) : data.open ? (
          <Form method="post" className="mock-pay__form">
            <p>Paying as {data.email}</p>
            <label htmlFor="card">Card number</label>
            <input id="card" name="card" inputMode="numeric" autoComplete="off" placeholder="4242 4242 4242 4242" required />
            <div className="mock-pay__row">
              <div>
                <label htmlFor="expiry">Expiry</label>
                <input id="expiry" name="expiry" placeholder="12 / 34" autoComplete="off" />
              </div>
              <div>
                <label htmlFor="cvc">CVC</label>
                <input id="cvc" name="cvc" placeholder="123" autoComplete="off" />
              </div>
            </div>
            {refusal}
            <button type="submit" className="button button--primary button--block" disabled={busy}>
              {busy ? "Paying…" : `Pay ${formatCents(data.total)}`}
            </button>
          </Form>
        ) : (
          <p className="notice notice--warning">This payment page is no longer open.</p>
        )}
        <a href={data.cancelUrl} className="button button--ghost button--block">
          Cancel and return to {brand.name}
        </a>
      </div>
    </main>
  );
}
