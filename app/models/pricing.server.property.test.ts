import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DISCOUNT_SCOPES } from "~/lib/discount-code";
import type { StoredOffer } from "~/models/discount-kinds.server";
import { DEFAULT_SETTINGS, zoneWith, type ShopSettings, type ZoneTerms } from "~/lib/shop-settings";
import { coveredSubtotalCents, priceLines, type AppliedDiscount } from "~/models/pricing.server";

/**
 * The engine's figures always add up, whatever the owner's settings, the zone,
 * the code and the cart (docs/decisions/052, 053): total = subtotal − discount
 * + shipping, never negative, the discount never above what it covers, and
 * every "what is missing" figure consistent with the rule it reports on.
 */

const cents = (max: number) => fc.integer({ min: 0, max });

const product = fc.record({
  priceCents: fc.integer({ min: 1, max: 20_000 }),
  category: fc.constantFrom("bars", "bites"),
});
const lines = fc.array(fc.record({ product, quantity: fc.integer({ min: 1, max: 99 }) }), { maxLength: 8 });

// The terms pricing reads, drawn at random; any other term of a zone keeps its neutral value (zoneWith).
const zone = (upToMiles: number, name: string): fc.Arbitrary<ZoneTerms> =>
  fc
    .record({
      minimumOrderCents: cents(50_000),
      shippingFeeCents: fc.option(cents(10_000), { nil: null }),
      freeShippingThresholdCents: fc.option(cents(100_000), { nil: null }),
    })
    .map((terms) => zoneWith({ name, upToMiles, ...terms }));

const settings: fc.Arbitrary<ShopSettings> = fc
  .uniqueArray(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 5 })
  .chain((miles) => fc.tuple(...[...miles].sort((a, b) => a - b).map((upTo, index) => zone(upTo, `zone ${index}`))))
  .chain((zones) =>
    fc.record({
      shippingFeeCents: cents(10_000),
      freeShippingThresholdCents: cents(100_000),
      minimumOrderCents: cents(50_000),
      kitchen: fc.constant({ lat: 34.0443, lon: -118.4509 }),
      zones: fc.constant(zones),
      delivery: fc.constant(DEFAULT_SETTINGS.delivery),
    }),
  );

/** Every kind with figures it may be saved with (models/discount-kinds.server.ts). */
const offer: fc.Arbitrary<StoredOffer> = fc.oneof(
  fc.record({ kind: fc.constant("percent" as const), terms: fc.record({ basisPoints: fc.integer({ min: 100, max: 10_000 }) }) }),
  fc.record({ kind: fc.constant("amount" as const), terms: fc.record({ amountOffCents: fc.integer({ min: 1, max: 100_000 }) }) }),
  fc.record({ kind: fc.constant("free-shipping" as const), terms: fc.constant({}) }),
);

const code: fc.Arbitrary<AppliedDiscount | null> = fc.option(
  fc
    .tuple(
      offer,
      fc.record({
        code: fc.constant("PROPERTY"),
        minimumSubtotalCents: fc.option(cents(100_000), { nil: null }),
        appliesTo: fc.constantFrom(...DISCOUNT_SCOPES),
        description: fc.constant("a code made up for the property test"),
        firstOrderOnly: fc.boolean(),
      }),
    )
    .map(([kind, conditions]) => ({ ...kind, ...conditions })),
  { nil: null },
);

/** A cart, the terms, a code, and the zone of a checked address (or none yet). */
const scenario = fc
  .tuple(lines, settings, code)
  .chain(([cart, terms, offered]) =>
    fc.tuple(fc.constant(cart), fc.constant(terms), fc.constant(offered), fc.option(fc.constantFrom(...terms.zones), { nil: null })),
  );

describe("the pricing engine, over random carts, settings, zones and codes", () => {
  it("adds up: total = subtotal − discount + shipping, none negative, the discount within what it covers", () => {
    fc.assert(
      fc.property(scenario, ([cart, terms, offered, inZone]) => {
        const price = priceLines(cart, offered, { settings: terms, zone: inZone });
        expect(price.subtotalCents).toBe(cart.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0));
        expect(price.lines.map((line) => line.lineTotalCents)).toEqual(cart.map((line) => line.product.priceCents * line.quantity));
        expect(price.totalCents).toBe(price.subtotalCents - price.discountCents + price.shippingCents);
        expect(price.totalCents).toBeGreaterThanOrEqual(0);
        expect(price.discountCents).toBeGreaterThanOrEqual(0);
        const covered = offered ? coveredSubtotalCents(price.lines, offered.appliesTo) : 0;
        expect(price.discountCents).toBeLessThanOrEqual(covered);
        expect(price.discountCents).toBeLessThanOrEqual(price.subtotalCents);
      }),
      { numRuns: 500 },
    );
  });

  it("charges the zone's fee (else the shop's) below the zone's threshold (else the shop's), nothing from it up or with a free-shipping code", () => {
    fc.assert(
      fc.property(scenario, ([cart, terms, offered, inZone]) => {
        const price = priceLines(cart, offered, { settings: terms, zone: inZone });
        const fee = inZone?.shippingFeeCents ?? terms.shippingFeeCents;
        const freeFrom = inZone?.freeShippingThresholdCents ?? terms.freeShippingThresholdCents;
        const waived = price.discount?.kind === "free-shipping";
        expect(price.shippingWaived).toBe(waived);
        expect(price.shippingCents).toBe(waived || price.subtotalCents >= freeFrom ? 0 : fee);
        // "Add $X for free shipping" says exactly what is missing, and nothing once shipping costs nothing.
        expect(price.freeShippingRemainingCents).toBe(price.shippingCents === 0 ? 0 : freeFrom - price.subtotalCents);
      }),
      { numRuns: 500 },
    );
  });

  it("applies a code only when the cart meets its conditions, and says why when it does not", () => {
    fc.assert(
      fc.property(scenario, ([cart, terms, offered, inZone]) => {
        const price = priceLines(cart, offered, { settings: terms, zone: inZone });
        if (!offered) {
          expect(price.discount).toBeNull();
          expect(price.discountProblem).toBeNull();
          return;
        }
        const covered = coveredSubtotalCents(price.lines, offered.appliesTo);
        const meets = (offered.appliesTo === "all" || covered > 0) && (offered.minimumSubtotalCents === null || covered >= offered.minimumSubtotalCents);
        expect(price.discount === null).toBe(!meets);
        expect(price.discountProblem === null).toBe(meets);
        if (!meets) expect(price.discountCents).toBe(0);
        if (meets && offered.kind === "amount") expect(price.discountCents).toBe(Math.min(offered.terms.amountOffCents, covered));
        if (meets && offered.kind === "free-shipping") expect(price.discountCents).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it("says what the shop's minimum and the zone's minimum still need, judged on the subtotal", () => {
    fc.assert(
      fc.property(scenario, ([cart, terms, offered, inZone]) => {
        const price = priceLines(cart, offered, { settings: terms, zone: inZone });
        expect(price.minimumCents).toBe(terms.minimumOrderCents);
        expect(price.remainingCents).toBe(Math.max(0, terms.minimumOrderCents - price.subtotalCents));
        expect(price.meetsMinimum).toBe(price.remainingCents === 0);
        expect(price.zoneMinimumCents).toBe(inZone ? inZone.minimumOrderCents : null);
        expect(price.zoneRemainingCents).toBe(inZone ? Math.max(0, inZone.minimumOrderCents - price.subtotalCents) : 0);
      }),
      { numRuns: 500 },
    );
  });
});
