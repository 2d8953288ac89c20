import { randomUUID } from "node:crypto";
import { delay, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { server } from "../setup/msw";
import { loader } from "~/routes/order-success";
import { clearCheckoutSessionCache } from "~/services/stripe.server";
import { answerOf, payOrder, placeOrder, shopRequest } from "../utils";
import { db } from "~/utils/db.server";

/**
 * The confirmation page of an order already paid (Stripe's webhook usually
 * comes first) goes out whole: its loader waits a moment for the check, so
 * React renders the outcome instead of streaming a spinner and then the
 * outcome, and the page is compressed in one call (decision 070). A check
 * that asks a slow Stripe still streams the spinner first.
 */

type Streamed = { data: { outcome: Promise<{ status: string }> } };

async function load(sessionId: string) {
  const startedAt = performance.now();
  const result = await answerOf(loader, shopRequest(`/order-success?session_id=${encodeURIComponent(sessionId)}`), {
    clientAddress: `203.0.113.7-${randomUUID()}`,
  });
  if (result instanceof Response) throw new Error(`/order-success answered ${result.status}`);
  const { outcome } = (result as Streamed).data;
  let settled = false;
  void outcome.then(() => (settled = true));
  // As many turns as Remix takes before React renders: none of them a timer.
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  return { settledAtRender: settled, tookMs: performance.now() - startedAt, outcome };
}

beforeEach(() => clearCheckoutSessionCache());
afterEach(() => server.resetHandlers());

describe("/order-success", () => {
  it("renders a paid order's confirmation whole: the check has settled when the page renders", async () => {
    const { sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    // The check of a paid order takes milliseconds; on a loaded machine it can take longer than the
    // page's wait. With that wait held still, what is tested is that the page waits for the check.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const page = await load(sessionId);
      expect(page.settledAtRender).toBe(true);
      expect(await page.outcome).toMatchObject({ status: "confirmed" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows an order already known to be paid without asking Stripe or writing a rate-limit row, however often it is viewed", async () => {
    const { sessionId } = await placeOrder();
    await payOrder(sessionId);
    clearCheckoutSessionCache();
    let asked = 0;
    server.use(
      http.get(`https://api.stripe.com/v1/checkout/sessions/${sessionId}`, () => {
        asked += 1;
        return new Response(null, { status: 500 });
      }),
    );
    const clientAddress = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    for (let view = 0; view < 3; view++) {
      const result = await answerOf(loader, shopRequest(`/order-success?session_id=${sessionId}`), { clientAddress });
      expect(await (result as Streamed).data.outcome).toMatchObject({ status: "confirmed" });
    }
    expect(asked).toBe(0);
    expect(await db.rateLimitWindow.count({ where: { key: `verify:${clientAddress}` } })).toBe(0);
  });

  it("streams the spinner first when Stripe is slow to answer, then the outcome", async () => {
    const { sessionId } = await placeOrder();
    await stripeMock.pay(sessionId);
    const session = await stripeMock.session(sessionId);
    server.use(
      http.get(`https://api.stripe.com/v1/checkout/sessions/${sessionId}`, async () => {
        await delay(300);
        return Response.json(session);
      }),
    );
    const page = await load(sessionId);
    expect(page.settledAtRender).toBe(false);
    expect(page.tookMs).toBeLessThan(290);
    expect(await page.outcome).toMatchObject({ status: "confirmed" });
  });
});
