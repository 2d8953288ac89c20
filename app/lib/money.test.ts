import { describe, expect, it } from "vitest";
import { centsToDollars, dollarsToCents, formatCents, formatWholeDollars } from "~/lib/money";

describe("cents and the dollars of the functions' JSON", () => {
  it("turns cents into dollars", () => {
    expect(centsToDollars(1250)).toBe(12.5);
    expect(centsToDollars(1999)).toBe(19.99);
    expect(centsToDollars(0)).toBe(0);
  });

  it("turns dollars into whole cents, nearest cent, half up", () => {
    expect(dollarsToCents(19.99)).toBe(1999); // 1998.9999999999998 in floating point
    expect(dollarsToCents(0.29)).toBe(29); // 28.999999999999996
    expect(dollarsToCents(0.125)).toBe(13);
    expect(dollarsToCents(50)).toBe(5000);
  });
});

describe("formatCents", () => {
  it("shows two decimals, a sign before the dollar sign, and thousands grouped", () => {
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(2000)).toBe("$20.00");
    expect(formatCents(-1250)).toBe("-$12.50");
    expect(formatCents(99_999)).toBe("$999.99");
    expect(formatCents(296_160)).toBe("$2,961.60");
    expect(formatCents(123_456_789)).toBe("$1,234,567.89");
  });
});

describe("formatWholeDollars", () => {
  it("states a whole amount without cents and any other amount with them", () => {
    expect(formatWholeDollars(5000)).toBe("$50");
    expect(formatWholeDollars(10000)).toBe("$100");
    expect(formatWholeDollars(2050)).toBe("$20.50");
    expect(formatWholeDollars(1_000_000)).toBe("$10,000");
  });
});
