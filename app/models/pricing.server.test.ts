import { describe, expect, it } from "vitest";
import { type Product } from "~/models/catalog.server";
import { priceLines, type AppliedDiscount } from "~/models/pricing.server";

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
    ...overrides,
  };
}

/** One line of one product priced at `subtotalCents`, so the subtotal is exactly that. */
function oneLine(subtotalCents: number) {
  return [{ product: product("single", subtotalCents), quantity: 1 }];
}

function discount(basisPoints: number, code = "TEST"): AppliedDiscount {
  return { code, basisPoints, description: `${basisPoints / 100}% off`, firstOrderOnly: false };
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
