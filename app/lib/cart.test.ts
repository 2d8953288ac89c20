import { describe, expect, it } from "vitest";
import { applyCartChange, cartTotals, discountCentsFor, shippingFor, type CartItem } from "~/lib/cart";
import { formatCents } from "~/lib/money";

const bar = { priceCents: 600 };
const bites = { priceCents: 1000 };

function apply(items: CartItem[], ...changes: Parameters<typeof applyCartChange>[1][]) {
  return changes.reduce<CartItem[]>((current, change) => {
    const result = applyCartChange(current, change);
    if (!result.ok) throw new Error(result.error);
    return result.items;
  }, items);
}

describe("cart changes", () => {
  it("appends a new product as a new line", () => {
    expect(apply([], { intent: "add", productId: "bar-banana-pb", quantity: 1 })).toEqual([
      { productId: "bar-banana-pb", quantity: 1 },
    ]);
  });

  it("merges adding a product already in the cart into its line", () => {
    const items = apply(
      [],
      { intent: "add", productId: "bar-banana-pb", quantity: 1 },
      { intent: "add", productId: "bites-banana", quantity: 1 },
      { intent: "add", productId: "bar-banana-pb", quantity: 2 },
    );
    expect(items).toEqual([
      { productId: "bar-banana-pb", quantity: 3 },
      { productId: "bites-banana", quantity: 1 },
    ]);
  });

  it("removes a line updated to zero or less", () => {
    const start = [
      { productId: "a", quantity: 2 },
      { productId: "b", quantity: 1 },
    ];
    expect(apply(start, { intent: "update", productId: "a", quantity: 0 })).toEqual([{ productId: "b", quantity: 1 }]);
    expect(apply(start, { intent: "update", productId: "b", quantity: -3 })).toEqual([{ productId: "a", quantity: 2 }]);
  });

  it("sets a line's quantity on update", () => {
    expect(apply([{ productId: "a", quantity: 2 }], { intent: "update", productId: "a", quantity: 7 })).toEqual([
      { productId: "a", quantity: 7 },
    ]);
  });

  it("removes a line and clears the cart", () => {
    const start = [
      { productId: "a", quantity: 2 },
      { productId: "b", quantity: 1 },
    ];
    expect(apply(start, { intent: "remove", productId: "a" })).toEqual([{ productId: "b", quantity: 1 }]);
    expect(apply(start, { intent: "clear" })).toEqual([]);
  });

  it("refuses more than 99 of one product, leaving the cart as it was", () => {
    const start = [{ productId: "a", quantity: 98 }];
    expect(applyCartChange(start, { intent: "add", productId: "a", quantity: 1 })).toEqual({
      ok: true,
      items: [{ productId: "a", quantity: 99 }],
    });
    expect(applyCartChange(start, { intent: "add", productId: "a", quantity: 2 })).toMatchObject({ ok: false });
    expect(applyCartChange(start, { intent: "update", productId: "a", quantity: 100 })).toMatchObject({ ok: false });
  });
});

describe("cart totals", () => {
  it("counts items and sums price times quantity", () => {
    const totals = cartTotals([
      { ...bar, quantity: 2 },
      { ...bites, quantity: 1 },
    ]);
    expect(totals.itemCount).toBe(3);
    expect(totals.subtotalCents).toBe(2200);
  });

  it("is empty for an empty cart", () => {
    expect(cartTotals([])).toMatchObject({ itemCount: 0, subtotalCents: 0, meetsMinimum: false, remainingCents: 2000 });
  });

  it("needs $20.00 before checkout and says how much is missing", () => {
    const below = cartTotals([{ ...bar, quantity: 3 }]);
    expect(below.meetsMinimum).toBe(false);
    expect(`Add ${formatCents(below.remainingCents)} more`).toBe("Add $2.00 more");

    const oneCentShort = cartTotals([{ priceCents: 1999, quantity: 1 }]);
    expect(oneCentShort.meetsMinimum).toBe(false);
    expect(formatCents(oneCentShort.remainingCents)).toBe("$0.01");

    const exactly = cartTotals([{ ...bites, quantity: 2 }]);
    expect(exactly.meetsMinimum).toBe(true);
    expect(exactly.remainingCents).toBe(0);
  });

  it("charges $10.00 shipping below $50 and none from $50", () => {
    expect(shippingFor(4999)).toBe(1000);
    expect(shippingFor(5000)).toBe(0);
    expect(cartTotals([{ ...bites, quantity: 5 }]).shippingCents).toBe(0);
  });
});

describe("formatCents", () => {
  it("shows dollars with two decimals", () => {
    expect(formatCents(600)).toBe("$6.00");
    expect(formatCents(1005)).toBe("$10.05");
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(-250)).toBe("-$2.50");
  });
});

describe("discounts", () => {
  it("takes the fraction of the subtotal, rounded half up to the cent", () => {
    expect(discountCentsFor(3000, 1000)).toBe(300);
    expect(discountCentsFor(2005, 1000)).toBe(201); // 200.5 rounds up
    expect(discountCentsFor(2004, 1000)).toBe(200); // 200.4 rounds down
    expect(discountCentsFor(2015, 1500)).toBe(302); // 302.25
    expect(discountCentsFor(2099, 2500)).toBe(525); // 524.75
    expect(discountCentsFor(0, 1000)).toBe(0);
  });

  it("makes total = subtotal - discount + shipping at the free-shipping boundary", () => {
    for (const subtotal of [1999, 2000, 4999, 5000]) {
      const total = subtotal - discountCentsFor(subtotal, 1000) + shippingFor(subtotal);
      expect(total).toBe(subtotal - Math.floor((subtotal * 1000 + 5000) / 10000) + (subtotal >= 5000 ? 0 : 1000));
    }
  });
});
