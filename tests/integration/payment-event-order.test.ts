import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock, type MockSession } from "../../mocks/stripe";
import { db } from "~/utils/db.server";
import { chargeRefunded, deliverStripeEvent, expectDailySalesToAgree, placeOrder, readJson, stripeSessionEvent } from "../utils";

/**
 * Stripe does not promise the order its events arrive in, and retries a
 * failed delivery hours later: the shop must end in the same state whatever
 * the order of checkout.session.completed, charge.refunded and
 * checkout.session.expired, and however often each comes again. Above all
 * the kitchen is never told to make an order that was refunded (decision 039:
 * a refund made in Stripe before the retried payment event was lost, and
 * the order ended paid and was made).
 */

type EventName = "completed" | "refunded" | "expired";
type WebhookJson = { received?: boolean; duplicate?: boolean };

beforeEach(() => {
  // The shop warns about a refund that came before its payment, and about a payment after an expiry.
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A placed order whose session the customer paid on Stripe's page, before any event about it reached the shop. */
async function paidAtStripe() {
  const placed = await placeOrder([["bites-variety", 3]]);
  await stripeMock.pay(placed.sessionId);
  const session = await stripeMock.session(placed.sessionId);
  if (!session?.payment_intent) throw new Error("the stand-in's paid session has a PaymentIntent");
  return { ...placed, session, paymentIntentId: session.payment_intent };
}

/** The three events of one paid session, each with its own event id (so a replay is the same payload again). */
function eventsOf(session: MockSession & { payment_intent: string }): Record<EventName, string> {
  return {
    completed: stripeSessionEvent("checkout.session.completed", session),
    refunded: chargeRefunded(session.payment_intent, { amount: session.amount_total ?? 0, refundId: `re_${session.payment_intent.slice(3)}` }),
    // An expired event for this session (as a late or misrouted one would be).
    expired: stripeSessionEvent("checkout.session.expired", { ...session, status: "expired", payment_status: "unpaid" }),
  };
}

async function deliver(payload: string) {
  const response = await deliverStripeEvent(payload);
  expect(response.status, "every event is acknowledged: none is lost or left for a retry").toBe(200);
  return readJson<WebhookJson>(response);
}

/** Every ordering of every non-empty subset of the events. */
function orderings(events: EventName[]): EventName[][] {
  const result: EventName[][] = [];
  const walk = (prefix: EventName[], rest: EventName[]) => {
    if (prefix.length > 0) result.push(prefix);
    rest.forEach((event, index) => walk([...prefix, event], [...rest.slice(0, index), ...rest.slice(index + 1)]));
  };
  walk([], events);
  return result;
}

/** What the shop must end with, given which events arrived (the order of arrival must not matter). */
function expected(arrived: Set<EventName>) {
  if (arrived.has("completed") && arrived.has("refunded")) return { paymentStatus: "refunded", emails: ["order-refunded"] };
  if (arrived.has("completed")) return { paymentStatus: "paid", emails: ["order-confirmation", "order-fulfilment"] };
  if (arrived.has("expired")) return { paymentStatus: "expired", emails: [] };
  return { paymentStatus: "unpaid", emails: [] };
}

async function outcome(orderId: string) {
  const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  // The emails that will go out: a refund withdraws its order's unsent confirmation and kitchen copy.
  const emails = await db.outboxMessage.findMany({ where: { orderId, status: { not: "withdrawn" } }, orderBy: { kind: "asc" }, select: { kind: true } });
  return { paymentStatus: order.paymentStatus, emails: emails.map(({ kind }) => kind) };
}

describe("payment events count in any order of arrival, and again", () => {
  for (const ordering of orderings(["completed", "refunded", "expired"])) {
    it(`${ordering.join(" → ")}, then each again`, async () => {
      const { orderId, session } = await paidAtStripe();
      const events = eventsOf(session as MockSession & { payment_intent: string });
      for (const name of ordering) expect(await deliver(events[name])).toEqual({ received: true });
      const after = await outcome(orderId);
      expect(after).toEqual(expected(new Set(ordering)));

      // Stripe delivers each event again (its retry after a lost acknowledgement): nothing changes.
      for (const name of [...ordering].reverse()) expect(await deliver(events[name])).toEqual({ received: true, duplicate: true });
      expect(await outcome(orderId)).toEqual(after);

      const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
      if (after.paymentStatus === "refunded") {
        expect({ by: order.refundedBy, cents: order.refundedCents, id: order.stripeRefundId }).toEqual({
          by: "Stripe",
          cents: session.amount_total,
          id: `re_${session.payment_intent!.slice(3)}`,
        });
      }
      // A refund is kept only until its payment arrives.
      expect(await db.earlyRefund.count({ where: { paymentIntentId: session.payment_intent! } })).toBe(
        ordering.includes("refunded") && !ordering.includes("completed") ? 1 : 0,
      );
      await expectDailySalesToAgree();
    });
  }

  it("a refund and its payment arriving at the same moment still end refunded, with no word to the kitchen", async () => {
    const orders = await Promise.all(Array.from({ length: 6 }, () => paidAtStripe()));
    await Promise.all(
      orders.flatMap(({ session }) => {
        const events = eventsOf(session as MockSession & { payment_intent: string });
        return [deliver(events.refunded), deliver(events.completed)];
      }),
    );
    for (const { orderId } of orders) expect(await outcome(orderId)).toEqual(expected(new Set(["completed", "refunded"])));
    await expectDailySalesToAgree();
  });

  it("the customer's return page (verify-payment) meets a kept refund the same way as the webhook does", async () => {
    const { orderId, session } = await paidAtStripe();
    await deliver(eventsOf(session as MockSession & { payment_intent: string }).refunded);
    const { verifyPayment } = await import("~/models/orders.server");
    expect(await verifyPayment(session.id)).toEqual({ verified: false, orderId });
    expect(await outcome(orderId)).toEqual(expected(new Set(["completed", "refunded"])));
  });
});
