import { describe, expect, it } from "vitest";
import { applyCartChange, type CartChange, type CartChangeResult, type CartItem } from "~/lib/cart";
import { formatCents } from "~/lib/money";

function apply(items: CartItem[], ...changes: Parameters<typeof applyCartChange>[1][]) {
  return changes.reduce<CartItem[]>((current, change) => {
    const result = applyCartChange(current, change);
    if (!result.ok) throw new Error(result.error);
    return result.items;
  }, items);
}

describe("cart changes", () => {
  it("appends a new product as a new line", () => {
    expect(apply([], { intent: "add", productId: "bar-banana-pb", quantity: 1 })).toEqual([{ productId: "bar-banana-pb", quantity: 1 }]);
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
    expect(apply([{ productId: "a", quantity: 2 }], { intent: "update", productId: "a", quantity: 7 })).toEqual([{ productId: "a", quantity: 7 }]);
  });

  it("removes a line and clears the cart", () => {
    const start = [
      { productId: "a", quantity: 2 },
      { productId: "b", quantity: 1 },
    ];
    expect(apply(start, { intent: "remove", productId: "a" })).toEqual([{ productId: "b", quantity: 1 }]);
    expect(apply(start, { intent: "clear" })).toEqual([]);
  });
});

describe("the 99-per-product cap", () => {
  const line = (quantity: number): CartItem[] => [{ productId: "a", quantity }];
  const tooMany: CartChangeResult = { ok: false, error: "You can order up to 99 of one product at a time." };
  const cases: [string, CartItem[], CartChange, CartChangeResult][] = [
    ["adding 1 to 98", line(98), { intent: "add", productId: "a", quantity: 1 }, { ok: true, items: line(99) }],
    ["adding 2 to 98", line(98), { intent: "add", productId: "a", quantity: 2 }, tooMany],
    ["adding 99 to an empty cart", [], { intent: "add", productId: "a", quantity: 99 }, { ok: true, items: line(99) }],
    ["adding 100 to an empty cart", [], { intent: "add", productId: "a", quantity: 100 }, tooMany],
    ["updating 2 to 99", line(2), { intent: "update", productId: "a", quantity: 99 }, { ok: true, items: line(99) }],
    ["updating 2 to 100", line(2), { intent: "update", productId: "a", quantity: 100 }, tooMany],
  ];

  it.each(cases)("%s", (_name, items, change, expected) => {
    expect(applyCartChange(items, change)).toEqual(expected);
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
