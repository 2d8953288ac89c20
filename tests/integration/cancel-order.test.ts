import { beforeAll, describe, expect, it } from "vitest";
import { changeCatalog } from "~/models/catalog.server";
import { findCustomerOrder } from "~/models/order-page.server";
import { db } from "~/utils/db.server";
import { callFunction, payOrder, placeOrder, readJson, signedInAdmin, uniqueEmail, type ErrorJson } from "../utils";

/**
 * cancel-order (issue 23, item 5; decision 064): the owner cancels an order
 * that has not shipped; a paid one is refunded in full first, and its customer
 * is told once; its stock and code use come back; `cancelled` then stays.
 */

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("cancel-owner");
  staff = await signedInAdmin("cancel-staff", "staff");
});

const cancel = (orderId: string, cookie = owner.cookie, reason = "Out of banana this week") => callFunction("cancel-order", { orderId, reason }, { cookie });
const emailsOf = (orderId: string) => db.outboxMessage.findMany({ where: { orderId }, select: { kind: true, subject: true, text: true } });

describe("cancel-order", () => {
  it("refunds a paid order, gives back its stock and its code's use, and tells the customer once that it was cancelled and refunded", async () => {
    await changeCatalog((tx) => tx.product.update({ where: { id: "bites-banana" }, data: { stock: 20, lowStockThreshold: 2 } }));
    const email = uniqueEmail("cancel");
    const placed = await placeOrder([["bites-banana", 3]], { email, discountCode: "WELCOME10" });
    await payOrder(placed.sessionId);
    const usesBefore = (await db.discountCode.findUniqueOrThrow({ where: { code: "WELCOME10" } })).usesHeld;
    expect((await db.product.findUniqueOrThrow({ where: { id: "bites-banana" } })).stock).toBe(17);

    const response = await cancel(placed.orderId);
    expect(response.status).toBe(200);
    expect((await readJson<{ message: string }>(response)).message).toBe(
      `Order ${placed.orderId.slice(0, 8)} is cancelled and refunded; the customer has been emailed.`,
    );

    const order = await db.order.findUniqueOrThrow({ where: { id: placed.orderId } });
    expect(order).toMatchObject({ status: "cancelled", paymentStatus: "refunded", firstOrderClaim: null, refundReason: "Out of banana this week" });
    expect((await db.product.findUniqueOrThrow({ where: { id: "bites-banana" } })).stock).toBe(20);
    expect((await db.discountCode.findUniqueOrThrow({ where: { code: "WELCOME10" } })).usesHeld).toBe(usesBefore - 1);
    // One email about it: cancelled and refunded together, not a second "refunded".
    const emails = (await emailsOf(placed.orderId)).filter((message) => message.kind === "order-cancelled" || message.kind === "order-refunded");
    expect(emails).toEqual([
      expect.objectContaining({ kind: "order-cancelled", subject: `Your Chill PB order ${placed.orderId.slice(0, 8)} was cancelled and refunded` }),
    ]);
    expect(emails[0]!.text).toContain("refunded $37.00");
    // Recorded: the status change with who, and the owner's reason in the audit.
    expect(await db.orderStatusChange.findMany({ where: { orderId: placed.orderId }, select: { fromStatus: true, toStatus: true, changedBy: true } })).toEqual([
      { fromStatus: "pending", toStatus: "cancelled", changedBy: owner.email },
    ]);
    expect(await db.auditEntry.count({ where: { subjectId: placed.orderId, action: "order.cancel" } })).toBe(1);

    // Asked again: already cancelled, nothing more happens.
    const again = await cancel(placed.orderId);
    expect(await readJson<{ message: string }>(again)).toEqual({ message: `Order ${placed.orderId.slice(0, 8)} was already cancelled.` });
    expect((await emailsOf(placed.orderId)).filter((message) => message.kind === "order-cancelled")).toHaveLength(1);
    expect((await db.discountCode.findUniqueOrThrow({ where: { code: "WELCOME10" } })).usesHeld).toBe(usesBefore - 1);

    // The customer's page says so: the steps it reached, then Cancelled and Refunded.
    const page = await findCustomerOrder(placed.orderId);
    expect(page?.steps.map((step) => step.key)).toEqual(["placed", "paid", "cancelled", "refunded"]);
    expect(page?.statusLabel).toBe("Cancelled");
    await changeCatalog((tx) => tx.product.update({ where: { id: "bites-banana" }, data: { stock: null } }));
  });

  it("cancels an unpaid order by closing its payment page: no refund, no email", async () => {
    const placed = await placeOrder([["bites-variety", 3]]);
    const response = await cancel(placed.orderId);
    expect(response.status).toBe(200);
    expect(await db.order.findUniqueOrThrow({ where: { id: placed.orderId } })).toMatchObject({ status: "cancelled", paymentStatus: "cancelled" });
    expect(await emailsOf(placed.orderId)).toEqual([]);
  });

  it("refuses an order that has shipped, staff, and a bad body; a cancelled order moves no further", async () => {
    const shipped = await placeOrder([["bites-variety", 3]]);
    await payOrder(shipped.sessionId);
    expect((await callFunction("update-order-status", { orderId: shipped.orderId, newStatus: "shipped" }, { cookie: owner.cookie })).status).toBe(200);
    const refused = await cancel(shipped.orderId);
    expect(refused.status).toBe(409);
    expect((await readJson<ErrorJson>(refused)).error).toContain("has shipped");
    expect((await db.order.findUniqueOrThrow({ where: { id: shipped.orderId } })).paymentStatus).toBe("paid");

    const paid = await placeOrder([["bites-variety", 3]]);
    await payOrder(paid.sessionId);
    expect((await cancel(paid.orderId, staff.cookie)).status).toBe(403);
    expect((await callFunction("cancel-order", { orderId: paid.orderId }, { cookie: owner.cookie })).status).toBe(400);
    expect((await callFunction("update-order-status", { orderId: paid.orderId, newStatus: "cancelled" }, { cookie: owner.cookie })).status).toBe(400);
    expect((await cancel(paid.orderId)).status).toBe(200);
    const moved = await callFunction("update-order-status", { orderId: paid.orderId, newStatus: "preparing" }, { cookie: owner.cookie });
    expect(moved.status).toBe(409);
    expect((await readJson<ErrorJson>(moved)).error).toBe("This order was cancelled, so it is no longer fulfilled.");
  });
});
