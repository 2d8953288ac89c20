import { json, type ActionFunctionArgs } from "@remix-run/node";
import type Stripe from "stripe";
import { db } from "~/db.server";
import { readLimited } from "~/lib/api.server";
import { markOrderPaid, releaseOrder } from "~/orders.server";
import { verifyWebhookEvent } from "~/payments.server";

const MAX_WEBHOOK_BYTES = 512 * 1024;

/**
 * Stripe's webhook: the raw body's signature is checked, each event id is
 * handled once (a repeat is acknowledged and skipped), and paid or expired
 * Checkout Sessions move their order on.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_WEBHOOK_BYTES) {
    return json({ error: "Payload too large" }, { status: 413 });
  }
  const rawBody = await readLimited(request, MAX_WEBHOOK_BYTES);
  if (rawBody === null) return json({ error: "Payload too large" }, { status: 413 });
  let event: Stripe.Event;
  try {
    event = verifyWebhookEvent(rawBody, request.headers.get("Stripe-Signature"));
  } catch (error) {
    console.warn(`Rejected a Stripe webhook: ${error instanceof Error ? error.message : "bad signature"}`);
    return json({ error: "Invalid signature" }, { status: 400 });
  }

  const seen = await db.stripeEvent.findUnique({ where: { id: event.id } });
  if (seen?.processedAt) return json({ received: true, duplicate: true });
  if (!seen) await db.stripeEvent.create({ data: { id: event.id, type: event.type } }).catch(() => undefined);

  await handleEvent(event);
  await db.stripeEvent.update({ where: { id: event.id }, data: { processedAt: new Date() } });
  return json({ received: true });
}

async function handleEvent(event: Stripe.Event) {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      const orderId = session.metadata?.orderId;
      if (orderId && session.payment_status === "paid") await markOrderPaid(orderId, session.id);
      return;
    }
    case "checkout.session.expired": {
      const session = event.data.object;
      if (session.metadata?.orderId) await releaseOrder(session.metadata.orderId, session.id);
      return;
    }
    default:
      return;
  }
}

export const loader = () => json({ error: "Use POST." }, { status: 405 });
