import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { db } from "~/db.server";
import { readLimited } from "~/lib/api.server";
import { markOrderPaid, releaseOrder } from "~/orders.server";
import { describeError } from "~/lib/errors.server";
import { verifyWebhookEvent } from "~/payments.server";

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
 * always sends payment_status; without it a session simply is not paid.
 */
const sessionSchema = z.object({
  id: z.string().min(1).max(255),
  payment_status: z.string().optional(),
  metadata: z.object({ orderId: z.string().optional() }).passthrough().nullish(),
});

type CheckoutSession = z.infer<typeof sessionSchema>;

type ParsedEvent =
  | { ok: true; id: string; type: string; session: CheckoutSession | null }
  | { ok: false; problem: string };

/** The event's shape, or where it is wrong (field path and issue code only: never a value). */
function parseEvent(event: unknown): ParsedEvent {
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { id, type, data } = parsed.data;
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
 * Stripe's webhook: the raw body's signature is checked, then its shape; each
 * event id is handled once (a repeat is acknowledged and skipped), and paid
 * or expired Checkout Sessions move their order on.
 */
export async function action({ request }: ActionFunctionArgs) {
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
    return json({ error: "Invalid signature" }, { status: 400 });
  }

  const event = parseEvent(verified);
  if (!event.ok) {
    console.warn(`Rejected a signed Stripe webhook of an unexpected shape (${event.problem})`);
    return json({ error: "Unexpected event shape" }, { status: 400 });
  }

  try {
    const seen = await db.stripeEvent.findUnique({ where: { id: event.id } });
    if (seen?.processedAt) return json({ received: true, duplicate: true });
    if (!seen) await db.stripeEvent.create({ data: { id: event.id, type: event.type } }).catch(() => undefined);

    await handleEvent(event.type, event.session);
    await db.stripeEvent.update({ where: { id: event.id }, data: { processedAt: new Date() } });
    return json({ received: true });
  } catch (error) {
    // Never the error itself: a Prisma error prints the query and its arguments.
    console.error(`Stripe webhook ${event.id} (${event.type}) failed: ${describeError(error)}`);
    // A 5xx makes Stripe deliver the event again later.
    return json({ error: "Could not handle the event" }, { status: 500 });
  }
}

async function handleEvent(type: string, session: CheckoutSession | null) {
  if (!session) return;
  const orderId = session.metadata?.orderId;
  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      if (orderId && session.payment_status === "paid") await markOrderPaid(orderId, session.id);
      return;
    case "checkout.session.expired":
      if (orderId) await releaseOrder(orderId, session.id);
      return;
    default:
      return;
  }
}

export const loader = () => json({ error: "Use POST." }, { status: 405 });
