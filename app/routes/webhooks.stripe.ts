import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handlePaymentEvent, type PaymentEvent } from "~/models/payment-events.server";
import { databaseFailureAnswer, readLimited, withLength } from "~/utils/api.server";
import { reportError } from "~/services/error-reports.server";
import { describeError } from "~/utils/errors.server";
import { metrics } from "~/utils/metrics.server";
import { verifyWebhookEvent } from "~/services/stripe.server";

const MAX_WEBHOOK_BYTES = 512 * 1024;

/**
 * What the shop relies on in an event. A signed body is still checked: a
 * test event, an API version change or a misconfigured forwarder can send
 * anything, and a bad shape must not reach the database (Prisma's errors
 * print the query's arguments).
 */
const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.object({}).passthrough() }),
});

/**
 * What the checkout.session.* events need of their Checkout Session. Stripe
 * always sends payment_status; without it a session simply is not paid. Its
 * status and total tell a completed $0 order (no_payment_required) apart.
 */
const sessionSchema = z.object({
  id: z.string().min(1).max(255),
  status: z.string().nullish(),
  payment_status: z.string().optional(),
  amount_total: z.number().int().nullish(),
  payment_intent: z.string().min(1).max(255).nullish(),
  metadata: z.object({ orderId: z.string().optional() }).passthrough().nullish(),
});

/**
 * What charge.refunded needs of its Charge: the PaymentIntent that finds the
 * order, whether it is refunded in full, and the refund when Stripe lists it
 * (it does not by default on recent API versions).
 */
const chargeSchema = z.object({
  id: z.string().min(1).max(255),
  payment_intent: z.string().min(1).max(255),
  refunded: z.boolean(),
  amount_refunded: z.number().int().min(0),
  refunds: z
    .object({ data: z.array(z.object({ id: z.string().min(1).max(255), amount: z.number().int().min(0).optional() }).passthrough()) })
    .passthrough()
    .nullish(),
});

type ParsedEvent = ({ ok: true } & PaymentEvent) | { ok: false; problem: string };

/** The event's shape, or where it is wrong (field path and issue code only: never a value). */
function parseEvent(event: unknown): ParsedEvent {
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { id, type, data } = parsed.data;
  if (type === "charge.refunded") {
    const charge = chargeSchema.safeParse(data.object);
    if (!charge.success) return { ok: false, problem: `${type}: ${describeIssue(charge.error, "data.object")}` };
    const { payment_intent, refunded, amount_refunded, refunds } = charge.data;
    const refundId = refunds?.data[0]?.id ?? null;
    // Each listed refund with its amount (newest first, as Stripe lists them); none when Stripe did not list them with amounts.
    const listed = refunds?.data.flatMap((refund) => (refund.amount === undefined ? [] : [{ id: refund.id, amount: refund.amount }])) ?? [];
    return {
      ok: true,
      id,
      type,
      session: null,
      charge: { paymentIntentId: payment_intent, refunded, amountRefunded: amount_refunded, refundId, refunds: listed.length > 0 ? listed : null },
    };
  }
  if (!type.startsWith("checkout.session.")) return { ok: true, id, type, session: null };
  const session = sessionSchema.safeParse(data.object);
  if (!session.success) return { ok: false, problem: `${type}: ${describeIssue(session.error, "data.object")}` };
  return { ok: true, id, type, session: session.data };
}

function describeIssue(error: z.ZodError, prefix?: string) {
  const issue = error.issues[0];
  const path = [prefix, ...(issue?.path ?? [])].filter((part) => part !== undefined && part !== "").join(".");
  return `${path || "(body)"}: ${issue?.code ?? "invalid"}`;
}

/**
 * Stripe's webhook: the raw body's signature is checked, then its shape, and
 * the event is handed to the payment-events model (each id handled once).
 */
/** Stripe's events; each answer with its length, so none is compressed (withLength). */
export async function action(args: ActionFunctionArgs) {
  return withLength(await handleWebhook(args));
}

async function handleWebhook({ request }: ActionFunctionArgs) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_WEBHOOK_BYTES) {
    return json({ error: "Payload too large" }, { status: 413 });
  }
  const rawBody = await readLimited(request, MAX_WEBHOOK_BYTES);
  if (rawBody === null) return json({ error: "Payload too large" }, { status: 413 });
  let verified: unknown;
  try {
    verified = verifyWebhookEvent(rawBody, request.headers.get("Stripe-Signature"));
  } catch (error) {
    console.warn(`Rejected a Stripe webhook: ${error instanceof Error ? error.message : "bad signature"}`);
    metrics().webhooks.inc({ outcome: "bad_signature" });
    return json({ error: "Invalid signature" }, { status: 400 });
  }

  const event = parseEvent(verified);
  if (!event.ok) {
    console.warn(`Rejected a signed Stripe webhook of an unexpected shape (${event.problem})`);
    metrics().webhooks.inc({ outcome: "bad_shape" });
    return json({ error: "Unexpected event shape" }, { status: 400 });
  }

  try {
    const { duplicate } = await handlePaymentEvent(event);
    metrics().webhooks.inc({ outcome: duplicate ? "duplicate" : "handled" });
    return json(duplicate ? { received: true, duplicate: true } : { received: true });
  } catch (error) {
    metrics().webhooks.inc({ outcome: "failed" });
    // A 5xx makes Stripe deliver the event again later: 503 while the database is busy or away, which is no fault to report.
    const retryLater = databaseFailureAnswer(error, `Stripe webhook ${event.id} (${event.type})`);
    if (retryLater) return retryLater.status === 409 ? json({ error: "Could not handle the event" }, { status: 500 }) : retryLater;
    // Never the error itself: a Prisma error prints the query and its arguments.
    console.error(`Stripe webhook ${event.id} (${event.type}) failed: ${describeError(error)}`);
    reportError(error, { source: "function", route: "/webhooks/stripe" });
    return json({ error: "Could not handle the event" }, { status: 500 });
  }
}
