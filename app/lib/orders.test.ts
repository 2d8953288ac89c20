import { describe, expect, it } from "vitest";
import { OrderStatus, PaymentStatus } from "~/generated/prisma/enums";
import { ORDER_STATUSES, PAYMENT_STATUSES, isOrderStatus, shortOrderId } from "~/lib/orders";

describe("the order vocabulary", () => {
  it("lists exactly the database's enums, in the schema's order", () => {
    expect(ORDER_STATUSES).toEqual(Object.values(OrderStatus));
    expect(PAYMENT_STATUSES).toEqual(Object.values(PaymentStatus));
  });

  it("recognises only the four fulfilment statuses", () => {
    expect(ORDER_STATUSES.every(isOrderStatus)).toBe(true);
    for (const other of ["Pending", "paid", "", "shipped ", null, undefined, 1]) expect(isOrderStatus(other)).toBe(false);
  });

  it("shortens an id to its first eight characters", () => {
    expect(shortOrderId("3f2b9c1d-7e4a-4b8e-9a51-0c6d2e7f8a90")).toBe("3f2b9c1d");
    expect(shortOrderId("abc")).toBe("abc");
  });
});
