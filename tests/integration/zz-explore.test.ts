import { it } from "vitest";
import { db } from "~/db.server";
import { updateOrderStatus } from "~/admin-orders.server";
import { markOrderPaid } from "~/orders.server";
import { placeOrder } from "./functions-client";

it("explore", async () => {
  const { orderId, sessionId } = await placeOrder();
  await markOrderPaid(orderId, sessionId);
  const r = await Promise.allSettled([updateOrderStatus(orderId, "shipped", "a"), updateOrderStatus(orderId, "shipped", "b"), updateOrderStatus(orderId, "shipped", "c")]);
  console.log(JSON.stringify(r));
  console.log(await db.orderStatusChange.count({ where: { orderId } }), await db.outboxMessage.count({ where: { orderId, kind: "order-shipped" } }));
});
