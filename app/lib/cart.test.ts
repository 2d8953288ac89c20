import { describe, expect, it } from "vitest";
import {
  applyCartChange,
  cartTotals,
  discountCentsFor,
  freeShippingHint,
  shippingFor,
  type CartChange,
  type CartChangeResult,
  type CartItem,
} from "~/lib/cart";
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

  it("says how much is missing below the $20.00 minimum: three $6.00 bars are $2.00 short", () => {
    expect(cartTotals([{ ...bar, quantity: 3 }])).toMatchObject({ subtotalCents: 1800, meetsMinimum: false, remainingCents: 200 });
  });

  // [subtotal, meets the $20 minimum, cents still missing, shipping]
  const boundaries: [number, boolean, number, number][] = [
    [1999, false, 1, 1000],
    [2000, true, 0, 1000],
    [4999, true, 0, 1000],
    [5000, true, 0, 0],
  ];

  it.each(boundaries)("a subtotal of %i cents: minimum met %s, %i cents missing, shipping %i cents", (subtotal, meetsMinimum, remainingCents, shippingCents) => {
    const totals = cartTotals([{ priceCents: subtotal, quantity: 1 }]);
    expect(totals).toEqual({ itemCount: 1, subtotalCents: subtotal, shippingCents, meetsMinimum, remainingCents });
    expect(shippingFor(subtotal)).toBe(shippingCents);
  });

  it("ships five $10.00 cartons free (exactly $50.00)", () => {
    expect(cartTotals([{ ...bites, quantity: 5 }])).toMatchObject({ subtotalCents: 5000, shippingCents: 0 });
  });
});

describe("the free-shipping hint", () => {
  // [subtotal in cents, the hint]
  const hints: [number, string | null][] = [
    [0, null],
    [1, "Add $49.99 for free shipping"],
    [600, "Add $44.00 for free shipping"],
    [1800, "Add $32.00 for free shipping"],
    [4400, "Add $6.00 for free shipping"],
    [4999, "Add $0.01 for free shipping"],
    [5000, null],
    [5001, null],
    [12000, null],
  ];

  it.each(hints)("a subtotal of %i cents: %s", (subtotal, hint) => {
    expect(freeShippingHint(subtotal)).toBe(hint);
  });

  it("says nothing for an empty cart, which has nothing to ship", () => {
    expect(freeShippingHint(cartTotals([]).subtotalCents)).toBeNull();
  });

  it("agrees with the shipping rule: a hint exactly while shipping is charged on a non-empty cart", () => {
    for (const subtotal of [1, 2000, 4999, 5000, 9900]) {
      expect(freeShippingHint(subtotal) !== null).toBe(shippingFor(subtotal) > 0);
    }
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

  // 10% (WELCOME10) around the $20 minimum and the $50 free-shipping threshold.
  it.each([
    [1999, 200], // 199.9
    [2000, 200],
    [4999, 500], // 499.9
    [5000, 500],
  ])("takes 10%% of %i cents as %i cents", (subtotal, discount) => {
    expect(discountCentsFor(subtotal, 1000)).toBe(discount);
  });
});
