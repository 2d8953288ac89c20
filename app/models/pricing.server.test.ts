import { describe, expect, it } from "vitest";
import { type Product } from "~/models/catalog.server";
import { DEFAULT_SETTINGS, zoneWith, type ZoneTerms } from "~/lib/shop-settings";
import { freeShippingHint, priceLines as priceOn, type AppliedDiscount } from "~/models/pricing.server";
import { discountCentsFor } from "~/models/discount-kinds.server";

/** On the requirements' terms; `zoneMinimumCents` stands for a checked address in a zone with that minimum. */
function priceLines(lines: Parameters<typeof priceOn<Product>>[0], code: AppliedDiscount | null, zoneMinimumCents: number | null = null) {
  const zone: ZoneTerms | null = zoneMinimumCents === null ? null : zoneWith({ name: "test", upToMiles: 10, minimumOrderCents: zoneMinimumCents });
  return priceOn(lines, code, { settings: DEFAULT_SETTINGS, zone });
}

function product(id: string, priceCents: number, overrides: Partial<Product> = {}): Product {
  return {
    id,
    name: `Test product ${id}`,
    description: "A product made up for the pricing tests.",
    priceCents,
    category: "bars",
    flavor: "Banana",
    image: `/images/${id}.webp`,
    imageAlt: `A test product ${id}`,
    imageWidth: 800,
    imageHeight: 600,
    inStock: true,
    forSale: true,
    stockLeft: null,
    allergy: null,
    claims: [],
    ...overrides,
  };
}

/** One line of one product priced at `subtotalCents`, so the subtotal is exactly that. */
function oneLine(subtotalCents: number) {
  return [{ product: product("single", subtotalCents), quantity: 1 }];
}

function discount(basisPoints: number, code = "TEST"): AppliedDiscount {
  return {
    code,
    kind: "percent",
    terms: { basisPoints },
    minimumSubtotalCents: null,
    appliesTo: "all",
    description: `${basisPoints / 100}% off`,
    firstOrderOnly: false,
  };
}

const TEN_PERCENT = discount(1000, "WELCOME10");
const FIFTEEN_PERCENT = discount(1500, "FIFTEEN");

describe("priceLines: the $20.00 minimum order", () => {
  it("is not met at $19.99, with 1 cent remaining, and charges shipping", () => {
    const price = priceLines(oneLine(1999), null);
    expect(price.subtotalCents).toBe(1999);
    expect(price.minimumCents).toBe(2000);
    expect(price.meetsMinimum).toBe(false);
    expect(price.remainingCents).toBe(1);
    expect(price.shippingCents).toBe(1000);
    expect(price.totalCents).toBe(2999);
  });

  it("is met at $20.00, with nothing remaining", () => {
    const price = priceLines(oneLine(2000), null);
    expect(price.meetsMinimum).toBe(true);
    expect(price.remainingCents).toBe(0);
    expect(price.shippingCents).toBe(1000);
    expect(price.totalCents).toBe(3000);
  });

  it("is judged on the subtotal before the discount", () => {
    const price = priceLines(oneLine(2000), TEN_PERCENT);
    expect(price.discountCents).toBe(200);
    expect(price.meetsMinimum).toBe(true);
    expect(price.remainingCents).toBe(0);
    expect(price.totalCents).toBe(2800);
  });

  it("is not met by an empty order", () => {
    const price = priceLines([], null);
    expect(price.lines).toEqual([]);
    expect(price.subtotalCents).toBe(0);
    expect(price.meetsMinimum).toBe(false);
    expect(price.remainingCents).toBe(2000);
    expect(price.freeShippingRemainingCents).toBe(5000);
  });
});

describe("priceLines: free shipping from $50.00", () => {
  it("charges $10.00 shipping at $49.99, 1 cent short of free shipping", () => {
    const price = priceLines(oneLine(4999), null);
    expect(price.shippingCents).toBe(1000);
    expect(price.freeShippingRemainingCents).toBe(1);
    expect(price.totalCents).toBe(5999);
  });

  it("ships free at $50.00", () => {
    const price = priceLines(oneLine(5000), null);
    expect(price.shippingCents).toBe(0);
    expect(price.freeShippingRemainingCents).toBe(0);
    expect(price.totalCents).toBe(5000);
  });

  it("judges the threshold on the subtotal, not on the discounted amount", () => {
    const price = priceLines(oneLine(5000), TEN_PERCENT);
    expect(price.subtotalCents).toBe(5000);
    expect(price.discountCents).toBe(500);
    expect(price.shippingCents).toBe(0);
    expect(price.freeShippingRemainingCents).toBe(0);
    expect(price.totalCents).toBe(4500);
  });

  it("still charges shipping at $49.99 with a discount", () => {
    const price = priceLines(oneLine(4999), TEN_PERCENT);
    expect(price.discountCents).toBe(500);
    expect(price.shippingCents).toBe(1000);
    expect(price.totalCents).toBe(5499);
  });
});

describe("priceLines: rounding the discount to the cent, half up", () => {
  it.each([
    // [subtotal, basis points, discount, total]
    [2005, 1000, 201, 2804], // 200.5 rounds up
    [2004, 1000, 200, 2804], // 200.4 rounds down
    [2015, 1000, 202, 2813], // 201.5 rounds up
    [2014, 1000, 201, 2813], // 201.4 rounds down
    [2003, 1500, 300, 2703], // 300.45 rounds down
    [2010, 1500, 302, 2708], // 301.5 rounds up
  ])("subtotal %i at %i basis points: discount %i, total %i", (subtotalCents, basisPoints, discountCents, totalCents) => {
    const applied = discount(basisPoints);
    const price = priceLines(oneLine(subtotalCents), applied);
    expect(price.subtotalCents).toBe(subtotalCents);
    expect(price.discount).toEqual(applied);
    expect(price.discountCents).toBe(discountCents);
    expect(price.shippingCents).toBe(1000);
    expect(price.totalCents).toBe(totalCents);
  });

  it("rounds 15% on a subtotal over the free-shipping threshold", () => {
    const price = priceLines(oneLine(5003), FIFTEEN_PERCENT); // 750.45
    expect(price.discountCents).toBe(750);
    expect(price.shippingCents).toBe(0);
    expect(price.totalCents).toBe(4253);
  });
});

describe("priceLines: delivery zone minimums", () => {
  it("leaves 1 cent remaining for a $50.00 zone at $49.99", () => {
    const price = priceLines(oneLine(4999), null, 5000);
    expect(price.zoneMinimumCents).toBe(5000);
    expect(price.zoneRemainingCents).toBe(1);
  });

  it("leaves nothing remaining for a $50.00 zone at $50.00", () => {
    const price = priceLines(oneLine(5000), null, 5000);
    expect(price.zoneMinimumCents).toBe(5000);
    expect(price.zoneRemainingCents).toBe(0);
  });

  it("leaves 1 cent remaining for a $100.00 zone at $99.99", () => {
    const price = priceLines(oneLine(9999), null, 10000);
    expect(price.zoneMinimumCents).toBe(10000);
    expect(price.zoneRemainingCents).toBe(1);
  });

  it("leaves nothing remaining above a zone minimum", () => {
    const price = priceLines(oneLine(12345), null, 10000);
    expect(price.zoneRemainingCents).toBe(0);
  });

  it("is judged on the subtotal before the discount", () => {
    const price = priceLines(oneLine(5000), TEN_PERCENT, 5000);
    expect(price.discountCents).toBe(500);
    expect(price.zoneRemainingCents).toBe(0);
  });

  it("has no zone minimum while the zone is unknown", () => {
    const unknown = priceLines(oneLine(1999), null, null);
    expect(unknown.zoneMinimumCents).toBeNull();
    expect(unknown.zoneRemainingCents).toBe(0);

    const defaulted = priceLines(oneLine(1999), null);
    expect(defaulted.zoneMinimumCents).toBeNull();
    expect(defaulted.zoneRemainingCents).toBe(0);
  });
});

describe("priceLines: lines", () => {
  it("prices each line as price × quantity and adds them up", () => {
    const bar = product("bar-banana-pb", 600);
    const bites = product("bites-banana", 1000, { category: "bites" });
    const price = priceLines(
      [
        { product: bar, quantity: 3 },
        { product: bites, quantity: 2 },
      ],
      null,
    );
    expect(price.lines).toEqual([
      { product: bar, quantity: 3, lineTotalCents: 1800 },
      { product: bites, quantity: 2, lineTotalCents: 2000 },
    ]);
    expect(price.subtotalCents).toBe(3800);
    expect(price.shippingCents).toBe(1000);
    expect(price.freeShippingRemainingCents).toBe(1200);
    expect(price.meetsMinimum).toBe(true);
    expect(price.totalCents).toBe(4800);
  });

  it("discounts the subtotal of several lines", () => {
    const price = priceLines(
      [
        { product: product("a", 599), quantity: 3 },
        { product: product("b", 1099), quantity: 2 },
      ],
      TEN_PERCENT,
    );
    expect(price.lines.map((line) => line.lineTotalCents)).toEqual([1797, 2198]);
    expect(price.subtotalCents).toBe(3995);
    expect(price.discountCents).toBe(400); // 399.5 rounds up
    expect(price.totalCents).toBe(4595);
  });
});

describe("priceLines: without a discount", () => {
  it("has no discount and discounts nothing", () => {
    const price = priceLines(oneLine(2500), null);
    expect(price.discount).toBeNull();
    expect(price.discountCents).toBe(0);
    expect(price.totalCents).toBe(3500);
  });
});

describe("shipping", () => {
  it.each([
    [0, 1000],
    [1999, 1000],
    [4999, 1000],
    [5000, 0],
    [5001, 0],
  ])("a subtotal of %i cents ships for %i cents", (subtotal, shipping) => {
    expect(priceLines(oneLine(subtotal), null).shippingCents).toBe(shipping);
  });
});

describe("the free-shipping hint", () => {
  // [subtotal in cents, the hint]
  const hints: [number, string | null][] = [
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
    expect(freeShippingHint(priceLines(oneLine(subtotal), null))).toBe(hint);
  });

  it("says nothing for an order with nothing to ship, though shipping is charged on it", () => {
    const empty = priceLines([], null);
    expect(empty.shippingCents).toBe(1000);
    expect(freeShippingHint(empty)).toBeNull();
  });

  it("is judged on the subtotal, as shipping is, not on the discounted amount", () => {
    expect(freeShippingHint(priceLines(oneLine(5000), TEN_PERCENT))).toBeNull();
    expect(freeShippingHint(priceLines(oneLine(4999), TEN_PERCENT))).toBe("Add $0.01 for free shipping");
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
