import { randomUUID } from "node:crypto";
import { http, HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import {
  clearCheckoutSessionCache,
  closeCheckoutSession,
  retrieveCheckoutSessionCached,
  SESSION_CACHE_MS,
  SESSION_CACHE_UNSETTLED_MS,
} from "~/services/stripe.server";
import { loader as orderSuccess } from "~/routes/order-success";
import { answerOf, callFunction, placeOrder, readJson, shopRequest, type VerifyJson } from "../utils";

/**
 * What keeps strangers from spending the shop's Stripe API budget: Checkout
 * Session answers cached briefly for verification, and a per-address limit on
 * verify-payment and /order-success (one shared "verify" count).
 */

const STRIPE_SESSIONS = "https://api.stripe.com/v1/checkout/sessions";

function retrievals(sessionId: string) {
  return stripeMock.requests.filter((request) => request.method === "GET" && request.path === `/v1/checkout/sessions/${sessionId}`).length;
}

function address(label: string) {
  return `203.0.113.9-${label}-${randomUUID()}`;
}

/** Freezes the clock a few seconds into a minute, so a fixed rate-limit window cannot roll over mid-test. */
function freezeClockEarlyInAMinute() {
  const now = new Date();
  now.setUTCSeconds(5, 0);
  vi.useFakeTimers({ toFake: ["Date"], now });
  return now;
}

function later(now: Date, ms: number) {
  vi.setSystemTime(new Date(now.getTime() + ms));
}

async function verify(sessionId: string, clientAddress = address("verify")) {
  const response = await callFunction("verify-payment", { sessionId }, { clientAddress });
  expect(response.status).toBe(200);
  return readJson<VerifyJson>(response);
}

/** Loads /order-success the way Remix does: the loader with the request and the client's address. */
async function loadOrderSuccess(sessionId: string, clientAddress: string) {
  const result = await answerOf(orderSuccess, shopRequest(`/order-success?session_id=${encodeURIComponent(sessionId)}`), { clientAddress });
  if (result instanceof Response) throw new Error(`/order-success answered ${result.status} instead of its page`);
  const headers = new Headers(result.init?.headers);
  return { status: result.init?.status ?? 200, headers, outcome: await result.data.outcome };
}

beforeEach(() => {
  clearCheckoutSessionCache();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("Checkout Session answers are cached briefly for verification", () => {
  it("the same paid session verified twice within the cache time asks Stripe once", async () => {
    const now = freezeClockEarlyInAMinute();
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);

    expect(await verify(sessionId)).toEqual({ verified: true, orderId });
    later(now, SESSION_CACHE_MS - 1);
    expect(await verify(sessionId)).toEqual({ verified: true, orderId });
    expect(retrievals(sessionId)).toBe(1);

    // Once the answer is older than the cache time, Stripe is asked again.
    later(now, SESSION_CACHE_MS + 1);
    expect(await verify(sessionId)).toEqual({ verified: true, orderId });
    expect(retrievals(sessionId)).toBe(2);
  });

  it("verifications at the same moment share one request", async () => {
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => verify(sessionId)));
    expect(answers).toEqual(Array(5).fill({ verified: true, orderId }));
    expect(retrievals(sessionId)).toBe(1);
  });

  it("an unpaid answer is kept only briefly, so a payment shows up on a check soon after", async () => {
    const now = freezeClockEarlyInAMinute();
    const { orderId, sessionId } = await placeOrder();
    expect(await verify(sessionId)).toEqual({ verified: false, orderId });
    await stripeMock.pay(sessionId);

    later(now, SESSION_CACHE_UNSETTLED_MS + 1);
    expect(await verify(sessionId)).toEqual({ verified: true, orderId });
    expect(retrievals(sessionId)).toBe(2);
  });

  it("keeps no failed answer: Stripe errors and unknown sessions are asked again", async () => {
    const { orderId, sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    server.use(http.get(`${STRIPE_SESSIONS}/:id`, () => HttpResponse.json({ error: { type: "api_error", message: "boom" } }, { status: 500 })));
    expect((await callFunction("verify-payment", { sessionId })).status).toBe(502);
    server.resetHandlers();
    expect(await verify(sessionId)).toEqual({ verified: true, orderId });

    for (let i = 0; i < 2; i++) expect(await verify("cs_test_unknown_session")).toEqual({ verified: false, orderId: null });
    expect(retrievals("cs_test_unknown_session")).toBe(2);
  });

  it("closing a payment page never uses a cached answer: a cached open session paid since is seen as paid", async () => {
    const { sessionId } = await placeOrder();
    expect((await retrieveCheckoutSessionCached(sessionId)).status).toBe("open");
    await stripeMock.pay(sessionId);
    expect(await closeCheckoutSession(sessionId)).toEqual({ ok: false, reason: "paid" });
    expect(retrievals(sessionId)).toBe(2);
  });
});

describe("/order-success is rate limited per address, together with verify-payment", () => {
  it("the 11th load a minute from one address of a session not known to be paid answers 429 without asking Stripe; once paid, its page is shown whatever the count", async () => {
    const now = freezeClockEarlyInAMinute();
    const clientAddress = address("page");
    const { orderId, sessionId } = await placeOrder();

    // Not paid yet: each load checks the session (Stripe asked once, then its answer cached).
    for (let index = 0; index < 10; index++) {
      const page = await loadOrderSuccess(sessionId, clientAddress);
      expect(page.status, `load ${index + 1}`).toBe(200);
      expect(page.outcome).toEqual({ status: "not-found" });
    }
    expect(retrievals(sessionId)).toBe(1);

    later(now, SESSION_CACHE_MS + 1);
    const refused = await loadOrderSuccess(sessionId, clientAddress);
    expect(refused.status).toBe(429);
    expect(refused.outcome).toEqual({ status: "limited" });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("Cache-Control")).toBe("no-store");
    expect(retrievals(sessionId)).toBe(1);

    // Paid, and seen so from another address: from then on the page is one read of the order, limit or not.
    await stripeMock.pay(sessionId);
    expect((await loadOrderSuccess(sessionId, address("other"))).outcome).toMatchObject({ status: "confirmed", order: { id: orderId } });
    const asked = retrievals(sessionId);
    const shown = await loadOrderSuccess(sessionId, clientAddress);
    expect(shown.status).toBe(200);
    expect(shown.outcome).toMatchObject({ status: "confirmed", order: { id: orderId } });
    expect(retrievals(sessionId)).toBe(asked);
  });

  it("shares its count with verify-payment", async () => {
    freezeClockEarlyInAMinute();
    const clientAddress = address("shared");
    const { sessionId } = await placeOrder();
    for (let index = 0; index < 10; index++) await verify(sessionId, clientAddress);
    expect((await loadOrderSuccess(sessionId, clientAddress)).status).toBe(429);
    expect((await callFunction("verify-payment", { sessionId }, { clientAddress })).status).toBe(429);
  });

  it("does not count a link without a valid session id (it never asks Stripe)", async () => {
    freezeClockEarlyInAMinute();
    const clientAddress = address("bogus");
    for (let index = 0; index < 12; index++) {
      expect(await loadOrderSuccess("not-a-session", clientAddress)).toMatchObject({ status: 200, outcome: { status: "not-found" } });
    }
    const { sessionId } = await placeOrder();
    expect((await loadOrderSuccess(sessionId, clientAddress)).status).toBe(200);
    expect(stripeMock.requests.filter((request) => request.method === "GET")).toHaveLength(1);
  });

  it("an unknown session shows Order Not Found, not an error", async () => {
    expect(await loadOrderSuccess("cs_test_unknown_session", address("unknown"))).toMatchObject({
      status: 200,
      outcome: { status: "not-found" },
    });
  });
});
