import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock, type MockSession } from "../../mocks/stripe";
import { db } from "~/utils/db.server";
import type { MaskedOrderWithHistory } from "~/lib/orders";
import type { SystemJson } from "~/lib/system";
import {
  callFunction,
  deliverStripeEvent,
  placeOrder,
  readJson,
  signedInAdmin,
  signStripePayload,
  stripeSessionEvent,
  uniqueEmail,
  type VerifyJson,
} from "../utils";

type WebhookJson = { received?: boolean; duplicate?: boolean; error?: string };

async function sessionOf(sessionId: string) {
  const session = await stripeMock.session(sessionId);
  if (!session) throw new Error(`The Stripe stand-in has no session ${sessionId}`);
  return session;
}

/** A placed order whose session the customer has paid on Stripe's page. */
async function paidSession(options: { email?: string; discountCode?: string } = {}) {
  const placed = await placeOrder([["bites-variety", 3]], options);
  await stripeMock.pay(placed.sessionId);
  return { ...placed, session: await sessionOf(placed.sessionId) };
}

function emailsFor(orderId: string) {
  return db.outboxMessage.findMany({ where: { orderId }, orderBy: { kind: "asc" } });
}

async function welcomeUses() {
  return (await db.discountCode.findUniqueOrThrow({ where: { code: "WELCOME10" } })).usesHeld;
}

// The app logs rejected signatures; keep the test output quiet.
beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the Stripe webhook only trusts signed events", () => {
  it("answers 400 to a bad signature and changes nothing", async () => {
    const { orderId, session } = await paidSession();
    const payload = stripeSessionEvent("checkout.session.completed", session);
    const forged = signStripePayload(payload, "whsec_someone_else");

    const response = await deliverStripeEvent(payload, { signature: forged });
    expect(response.status).toBe(400);
    expect(await readJson<WebhookJson>(response)).toEqual({ error: expect.any(String) });
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
    expect(await emailsFor(orderId)).toEqual([]);
    expect(await db.stripeEvent.count()).toBe(0);
  });

  it("answers 400 to a payload changed after signing", async () => {
    const { orderId, session } = await paidSession();
    const payload = stripeSessionEvent("checkout.session.completed", session);
    const signature = signStripePayload(payload);
    const tampered = payload.replace(`"amount_total":${session.amount_total}`, '"amount_total":1');
    expect(tampered).not.toBe(payload);

    expect((await deliverStripeEvent(tampered, { signature })).status).toBe(400);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
  });

  it("answers 413 to a body declared larger than 512 kB, before reading it", async () => {
    const { orderId, session } = await paidSession();
    const payload = stripeSessionEvent("checkout.session.completed", session);
    const response = await deliverStripeEvent(payload, { headers: { "Content-Length": String(600 * 1024) } });
    expect(response.status).toBe(413);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
  });

  it("answers 400 when the Stripe-Signature header is missing", async () => {
    const { orderId, session } = await paidSession();
    const response = await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", session), { signature: null });
    expect(response.status).toBe(400);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
    expect(await emailsFor(orderId)).toEqual([]);
  });
});

describe("checkout.session.completed", () => {
  it("marks the order paid and queues exactly the customer's confirmation and the kitchen's copy", async () => {
    const email = uniqueEmail("paid");
    const { orderId, session } = await paidSession({ email });

    const response = await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", session));
    expect(response.status).toBe(200);
    expect(await readJson<WebhookJson>(response)).toEqual({ received: true });

    const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.paymentStatus).toBe("paid");
    expect(order.paidAt).toBeInstanceOf(Date);

    const emails = await emailsFor(orderId);
    expect(emails.map(({ kind, to, status }) => ({ kind, to, status }))).toEqual([
      { kind: "order-confirmation", to: email, status: "pending" },
      { kind: "order-fulfilment", to: "kitchen@chillpb.test", status: "pending" },
    ]);
  });

  it("does not mark paid a correctly signed session whose amount is not the order's total: recorded once for the owner, counted and logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { orderId, session } = await paidSession();
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, select: { totalCents: true } });
    const changed = { ...session, amount_total: order.totalCents - 500 };
    // Signed with the shop's secret: the signature is right, the amount is not.
    for (let delivery = 0; delivery < 2; delivery++) {
      expect((await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", changed))).status).toBe(200);
    }
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
    expect(await emailsFor(orderId)).toEqual([]);
    const records = await db.auditEntry.findMany({ where: { action: "order.payment-mismatch", subjectId: orderId } });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ actorEmail: "Stripe" });
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^Stripe reported \$[\d.]+ paid for order .+, whose total is \$[\d.]+: not marked paid/));

    const admin = await signedInAdmin("mismatch-owner");
    const { order: shown } = await readJson<{ order: MaskedOrderWithHistory }>(await callFunction("get-order", { orderId }, { cookie: admin.cookie }));
    expect(shown.payment_mismatches).toEqual([
      { paid_cents: order.totalCents - 500, total_cents: order.totalCents, session_id: session.id, noticed_at: expect.any(String) },
    ]);
    const system = await readJson<SystemJson>(await callFunction("get-system", {}, { cookie: admin.cookie }));
    expect(system.paymentMismatches).toContainEqual({
      orderId,
      paidCents: order.totalCents - 500,
      totalCents: order.totalCents,
      noticedAt: expect.any(String),
    });

    // The session as it really is (the order's total) pays it.
    expect((await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", session))).status).toBe(200);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("paid");
  });

  it("ignores a completed session that is not paid yet", async () => {
    const { orderId, sessionId } = await placeOrder();
    const response = await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", await sessionOf(sessionId)));
    expect(response.status).toBe(200);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
    expect(await emailsFor(orderId)).toEqual([]);
  });

  it("ignores a paid session that names another order's session", async () => {
    const first = await paidSession();
    const second = await placeOrder();
    // A session carrying the second order's id, but not the session that order was given.
    const mismatched = { ...first.session, metadata: { orderId: second.orderId } };
    expect((await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", mismatched))).status).toBe(200);
    expect((await db.order.findUniqueOrThrow({ where: { id: second.orderId } })).paymentStatus).toBe("unpaid");
  });

  it("acknowledges event types it does not handle", async () => {
    const { orderId, session } = await paidSession();
    const response = await deliverStripeEvent(stripeSessionEvent("checkout.session.async_payment_failed", session));
    expect(response.status).toBe(200);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
  });
});

describe("each payment is fulfilled exactly once", () => {
  it("the same event delivered 5 times in a row: one paid order, one confirmation", async () => {
    const { orderId, session } = await paidSession();
    const payload = stripeSessionEvent("checkout.session.completed", session);

    const answers: WebhookJson[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await deliverStripeEvent(payload);
      expect(response.status).toBe(200);
      answers.push(await readJson<WebhookJson>(response));
    }
    expect(answers[0]).toEqual({ received: true });
    expect(answers.slice(1)).toEqual(Array(4).fill({ received: true, duplicate: true }));

    expect(await db.order.count({ where: { id: orderId, paymentStatus: "paid" } })).toBe(1);
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } })).toBe(1);
    expect(await db.outboxMessage.count({ where: { orderId } })).toBe(2);
  });

  it("the same event delivered 5 times at once: one paid order, one confirmation", async () => {
    const { orderId, session } = await paidSession();
    const payload = stripeSessionEvent("checkout.session.completed", session);

    const responses = await Promise.all(Array.from({ length: 5 }, () => deliverStripeEvent(payload)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);

    expect(await db.order.count({ where: { id: orderId, paymentStatus: "paid" } })).toBe(1);
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } })).toBe(1);
    expect(await db.outboxMessage.count({ where: { orderId } })).toBe(2);
  });

  it("different events for the same payment (completed, then async_payment_succeeded): one confirmation", async () => {
    const { orderId, session } = await paidSession();
    await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", session));
    await deliverStripeEvent(stripeSessionEvent("checkout.session.async_payment_succeeded", session));
    expect(await db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } })).toBe(1);
  });

  it("verify-payment racing the webhook: one confirmation, paidAt set once, WELCOME10 counted once", async () => {
    for (let round = 0; round < 4; round++) {
      const usesBefore = await welcomeUses();
      const { orderId, sessionId, session } = await paidSession({ discountCode: "WELCOME10" });
      const payload = stripeSessionEvent("checkout.session.completed", session);

      const [verified, delivered] = await Promise.all([
        callFunction("verify-payment", { sessionId }),
        deliverStripeEvent(payload),
        callFunction("verify-payment", { sessionId }),
      ]);
      expect(await readJson<VerifyJson>(verified)).toEqual({ verified: true, orderId });
      expect(delivered.status).toBe(200);

      const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order.paymentStatus).toBe("paid");
      const paidAt = order.paidAt;
      expect(paidAt).toBeInstanceOf(Date);

      // Later deliveries and checks change nothing.
      await deliverStripeEvent(payload);
      await callFunction("verify-payment", { sessionId });
      expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paidAt).toEqual(paidAt);

      expect(await db.outboxMessage.count({ where: { orderId, kind: "order-confirmation" } })).toBe(1);
      expect(await db.outboxMessage.count({ where: { orderId, kind: "order-fulfilment" } })).toBe(1);
      expect(await welcomeUses()).toBe(usesBefore + 1);
    }
  });

  it("does not count WELCOME10 for a paid order that did not use it", async () => {
    const usesBefore = await welcomeUses();
    const { sessionId, session } = await paidSession();
    await Promise.all([deliverStripeEvent(stripeSessionEvent("checkout.session.completed", session)), callFunction("verify-payment", { sessionId })]);
    expect(await welcomeUses()).toBe(usesBefore);
  });
});

describe("checkout.session.expired", () => {
  it("marks an unpaid order expired, with no emails", async () => {
    const { orderId, sessionId } = await placeOrder();
    const session = await stripeMock.timeOut(sessionId);
    if (!session) throw new Error(`The Stripe stand-in could not expire session ${sessionId}`);

    const response = await deliverStripeEvent(stripeSessionEvent("checkout.session.expired", session));
    expect(response.status).toBe(200);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("expired");
    expect(await emailsFor(orderId)).toEqual([]);
  });

  it("changes nothing for an order that is already paid", async () => {
    const { orderId, session } = await paidSession();
    await deliverStripeEvent(stripeSessionEvent("checkout.session.completed", session));
    const paid = await db.order.findUniqueOrThrow({ where: { id: orderId } });

    const response = await deliverStripeEvent(stripeSessionEvent("checkout.session.expired", { ...session, status: "expired" }));
    expect(response.status).toBe(200);
    const after = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(after).toMatchObject({ paymentStatus: "paid", paidAt: paid.paidAt });
    expect(await db.outboxMessage.count({ where: { orderId } })).toBe(2);
  });
});

describe("a signed event of an unexpected shape", () => {
  const EMAIL = /[^\s@"'`]+@[^\s@"'`]+\.[a-z]{2,}/i;

  /** Everything console.error and console.warn were given during the test, as text. */
  function logged() {
    const calls = [...vi.mocked(console.warn).mock.calls, ...vi.mocked(console.error).mock.calls];
    return calls.map((args) => args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack ?? ""}` : String(arg))).join(" ")).join("\n");
  }

  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });

  async function customerSession() {
    const { session } = await paidSession({ email: uniqueEmail("private") });
    expect(session.customer_email).toMatch(EMAIL);
    return session;
  }

  const shapes: [name: string, build: (session: MockSession) => unknown][] = [
    ["no id", (session) => ({ object: "event", type: "checkout.session.completed", data: { object: session } })],
    ["an id that is not a string", (session) => ({ id: 42, object: "event", type: "checkout.session.completed", data: { object: session } })],
    ["no type", (session) => ({ id: "evt_test_notype", object: "event", data: { object: session } })],
    ["no data", () => ({ id: "evt_test_nodata", object: "event", type: "checkout.session.completed" })],
    ["no data.object", () => ({ id: "evt_test_noobject", object: "event", type: "checkout.session.completed", data: {} })],
    ["data.object a string", (session) => ({ id: "evt_test_string", type: "checkout.session.completed", data: { object: session.id } })],
    ["data.object an array", (session) => ({ id: "evt_test_array", type: "checkout.session.completed", data: { object: [session] } })],
    ["data.object null", () => ({ id: "evt_test_null", type: "checkout.session.expired", data: { object: null } })],
    ["an array body", (session) => [JSON.parse(stripeSessionEvent("checkout.session.completed", session)) as unknown]],
    ["a string body", () => "checkout.session.completed"],
    ["a session without an id", (session) => ({ id: "evt_test_noid", type: "checkout.session.completed", data: { object: { ...session, id: undefined } } })],
    [
      "a session whose orderId is not a string",
      (session) => ({ id: "evt_test_meta", type: "checkout.session.completed", data: { object: { ...session, metadata: { orderId: 7 } } } }),
    ],
    [
      "a session whose payment_status is not a string",
      (session) => ({ id: "evt_test_status", type: "checkout.session.completed", data: { object: { ...session, payment_status: true } } }),
    ],
  ];

  it.each(shapes)("%s: answers 400 JSON, changes nothing and logs no customer data", async (_name, build) => {
    const session = await customerSession();
    const orderId = session.metadata.orderId!;
    const eventsBefore = await db.stripeEvent.count();
    const response = await deliverStripeEvent(JSON.stringify(build(session)));
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await readJson<WebhookJson>(response)).toEqual({ error: expect.any(String) });
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("unpaid");
    expect(await db.stripeEvent.count()).toBe(eventsBefore);
    expect(logged()).not.toMatch(EMAIL);
    expect(vi.mocked(console.warn)).toHaveBeenCalled();
  });

  it("still handles a well-formed event of a type it ignores whose object is not a session", async () => {
    const payload = JSON.stringify({ id: "evt_test_customer", type: "customer.created", data: { object: { id: "cus_test_1", email: "x@example.com" } } });
    const response = await deliverStripeEvent(payload);
    expect(response.status).toBe(200);
    expect(await readJson<WebhookJson>(response)).toEqual({ received: true });
  });

  it("still handles a session whose metadata is null (no order: nothing to do)", async () => {
    const session = await customerSession();
    const response = await deliverStripeEvent(
      stripeSessionEvent("checkout.session.completed", { ...session, metadata: null as unknown as Record<string, string> }),
    );
    expect(response.status).toBe(200);
    expect((await db.order.findUniqueOrThrow({ where: { id: session.metadata.orderId! } })).paymentStatus).toBe("unpaid");
  });

  it("a failure while handling answers 500 JSON (so Stripe retries) and logs the error's code and first line only", async () => {
    const session = await customerSession();
    const email = session.customer_email!;
    // The last statement (the event marked processed, node-pg since decision 068, Kysely's since 084) fails once, with the customer's email in its detail.
    const failure = Object.assign(new Error(`could not write the event\nKey (email)=(${email}) is not what it was`), {
      code: "40001",
      detail: `Key (email)=(${email})`,
    });
    const query = pg.Client.prototype.query;
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg's query answers a promise; the spy stands in for it
    vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [config] = args;
      const text = typeof config === "string" ? config : ((config as { text?: string }).text ?? "");
      if (/^update "StripeEvent" set "processedAt"/i.test(text)) {
        vi.mocked(pg.Client.prototype.query).mockRestore();
        // The pool calls its client with a callback; a caller without one gets a promise.
        const callback = args.find((arg): arg is (error: Error) => void => typeof arg === "function");
        if (!callback) return Promise.reject(failure);
        queueMicrotask(() => callback(failure));
        return undefined;
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query);

    const payload = stripeSessionEvent("checkout.session.completed", session);
    const response = await deliverStripeEvent(payload);
    expect(response.status).toBe(500);
    expect(await readJson<WebhookJson>(response)).toEqual({ error: expect.any(String) });
    expect(logged()).toContain("40001");
    expect(logged()).toContain("could not write the event");
    expect(logged()).not.toMatch(EMAIL);

    // Stripe's retry is handled normally: the order was paid once, the event is finished now.
    const retried = await deliverStripeEvent(payload);
    expect(retried.status).toBe(200);
    expect(await db.outboxMessage.count({ where: { orderId: session.metadata.orderId!, kind: "order-confirmation" } })).toBe(1);
  });
});
