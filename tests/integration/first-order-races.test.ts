import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { stripeMock } from "../../mocks/stripe";
import { callFunction, checkoutBody, readJson, uniqueEmail, type CheckoutJson, type ErrorJson } from "../utils";

/**
 * One mailbox, one first-order code, many checkouts at once (a double click,
 * two tabs, a script): the claim on the code moves from one attempt to the
 * next one at a time, so every answer is 200 or 409 (never a deadlock's
 * 500), exactly one unpaid order holds the claim at the end, its payment page
 * is open, and no attempt that was answered 200 was closed unless an attempt
 * that replaced it was answered 200 after it.
 */

const ROUNDS = 5;
const PARALLEL = 10;

describe("parallel first-order checkouts for one mailbox", () => {
  it(`answer 200 or 409, ${ROUNDS} rounds of ${PARALLEL}: the claim's holder has an open payment page`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const email = uniqueEmail(`first-order-race-${round}`);
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, () => callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }))),
      );
      const statuses = responses.map((response) => response.status);
      expect(
        statuses.filter((status) => status !== 200 && status !== 409),
        `round ${round}: ${statuses.join(", ")}`,
      ).toEqual([]);
      for (const response of responses.filter((candidate) => candidate.status === 409)) {
        expect((await readJson<ErrorJson>(response)).error).toEqual(expect.any(String));
      }
      const accepted = await Promise.all(responses.filter((response) => response.status === 200).map((response) => readJson<CheckoutJson>(response)));
      expect(accepted.length, `round ${round}: ${statuses.join(", ")}`).toBeGreaterThan(0);

      const holders = await db.order.findMany({
        where: { firstOrderClaim: { not: null }, email },
        select: { id: true, paymentStatus: true, stripeSessionId: true },
      });
      expect(holders, `round ${round}`).toHaveLength(1);
      const [holder] = holders;
      expect(holder!.paymentStatus).toBe("unpaid");
      // Its payment page is one an answer gave, and it is open at Stripe.
      expect(accepted.map((answer) => answer.orderId)).toContain(holder!.id);
      expect((await stripeMock.session(holder!.stripeSessionId!))?.status).toBe("open");

      // Every other accepted attempt was replaced by one accepted after it: closed at Stripe and given up.
      for (const answer of accepted.filter((candidate) => candidate.orderId !== holder!.id)) {
        const order = await db.order.findUniqueOrThrow({ where: { id: answer.orderId }, select: { paymentStatus: true, stripeSessionId: true } });
        expect(order.paymentStatus).toBe("cancelled");
        expect((await stripeMock.session(order.stripeSessionId!))?.status).toBe("expired");
      }
      // WELCOME10 is held once for this mailbox: by the holder.
      expect(await db.order.count({ where: { email, discountCode: "WELCOME10", paymentStatus: "unpaid" } })).toBe(1);
    }
  }, 120_000);

  it("an attempt still being set up is left to finish (409); one stuck without a page for long is given up and replaced", async () => {
    const email = uniqueEmail("first-order-stuck");
    const first = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
    expect(first.status).toBe(200);
    const { orderId } = await readJson<CheckoutJson>(first);
    // As an attempt whose instance has written it and not yet opened its page.
    await db.order.update({ where: { id: orderId }, data: { stripeSessionId: null, stripeSessionUrl: null } });

    const meanwhile = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
    expect(meanwhile.status).toBe(409);
    expect((await readJson<ErrorJson>(meanwhile)).error).toMatch(/already being set up in another tab/);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).firstOrderClaim).not.toBeNull();

    // Its instance died: a minute on, the next attempt gives it up and takes the code.
    await db.order.update({ where: { id: orderId }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const later = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { email, discountCode: "WELCOME10" }));
    expect(later.status).toBe(200);
    const replacement = await readJson<CheckoutJson>(later);
    expect(await db.order.findUniqueOrThrow({ where: { id: orderId }, select: { paymentStatus: true, firstOrderClaim: true } })).toEqual({
      paymentStatus: "cancelled",
      firstOrderClaim: null,
    });
    expect((await db.order.findUniqueOrThrow({ where: { id: replacement.orderId } })).firstOrderClaim).not.toBeNull();
  });
});
