import { describe, expect, it } from "vitest";
import { DISCOUNT_KINDS, termsInWords, type DiscountOffer } from "~/lib/discount-code";
import { centsOff, offerBodySchema, showOffer, storedOfferOf, storeOffer, waivesShipping } from "~/models/discount-kinds.server";

/**
 * Each kind of code, declared once (decision 088): the owner's figures as the
 * functions take them, as the row keeps them, and back; what each takes off.
 * A new kind adds its row to OFFERS, which must then name every kind.
 */
const OFFERS = {
  percent: { offer: { kind: "percent", percentOff: 15 }, stored: { basisPoints: 1500 }, offCents: 600, words: "15% off" },
  amount: { offer: { kind: "amount", amountOff: 5.5 }, stored: { amountOffCents: 550 }, offCents: 550, words: "$5.50 off" },
  "free-shipping": { offer: { kind: "free-shipping" }, stored: {}, offCents: 0, words: "Free shipping" },
} satisfies { [K in DiscountOffer["kind"]]: { offer: Extract<DiscountOffer, { kind: K }>; stored: object; offCents: number; words: string } };

describe.each(DISCOUNT_KINDS)("a %s code", (kind) => {
  const { offer, stored, offCents, words } = OFFERS[kind];

  it("is kept as its stored figures and read back as the owner gave them", () => {
    const body = offerBodySchema.parse({ ...offer, description: "beside the figures" });
    expect(body).toEqual(offer);
    expect(storeOffer(body)).toEqual({ kind, terms: stored });
    expect(showOffer(storedOfferOf({ code: "ROUND-TRIP", kind, terms: stored }))).toEqual(offer);
  });

  it("takes its figure off the lines it covers ($40.00 here), never more than they come to", () => {
    const applied = storedOfferOf({ code: "OFF", kind, terms: stored });
    expect(centsOff(applied, 4000)).toBe(offCents);
    expect(centsOff(applied, 100)).toBeLessThanOrEqual(100);
    expect(waivesShipping(applied)).toBe(kind === "free-shipping");
  });

  it("is said in the owner's words", () => {
    expect(termsInWords({ ...offer, minimumSubtotal: null, appliesTo: "all" })).toBe(words);
  });
});

describe("the owner's figures", () => {
  const messages = (body: unknown) => offerBodySchema.safeParse(body).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

  it("are a percent code's when no kind is given", () => {
    expect(offerBodySchema.parse({ percentOff: 10 })).toEqual({ kind: "percent", percentOff: 10 });
  });

  it.each([
    [{ kind: "percent" }, "percentOff: Percent off is required"],
    [{ kind: "percent", percentOff: 0 }, "percentOff: Percent off must be between 1 and 100"],
    [{ kind: "percent", percentOff: 12.5 }, "percentOff: Percent off must be a whole number"],
    [{ kind: "amount" }, "amountOff: Amount off is required, more than $0.00"],
    [{ kind: "amount", amountOff: 0 }, "amountOff: Amount off is required, more than $0.00"],
    [{ kind: "amount", amountOff: 2.005 }, "amountOff: Amount off can have at most 2 decimals"],
    [{ kind: "amount", amountOff: 1000.01 }, "amountOff: Amount off must be between $0.00 and $1,000.00"],
    [{ kind: "bogo" }, `kind: Kind must be one of ${DISCOUNT_KINDS.join(", ")}`],
  ])("refuse %j with the field's message", (body, message) => {
    expect(messages(body)).toEqual([message]);
  });
});

describe("a stored code this version cannot read", () => {
  it("is an error naming the code: a kind it does not know", () => {
    expect(() => storedOfferOf({ code: "NEWER", kind: "bogo", terms: { buy: 2 } })).toThrow(
      'Discount code NEWER is stored with kind "bogo", which this version of the shop does not know',
    );
  });

  it("is an error naming the code and the figure: a known kind without its figures, never 0 off", () => {
    expect(() => storedOfferOf({ code: "BROKEN", kind: "amount", terms: {} })).toThrow(
      /Stored terms of discount code BROKEN cannot be read by this version of the shop \(terms\.amountOffCents: Required\)/,
    );
  });
});
