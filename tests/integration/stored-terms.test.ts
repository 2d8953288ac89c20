import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readSettings } from "~/models/catalog.server";
import { listDiscountCodes } from "~/models/discount-codes.server";
import { storedLines } from "~/models/refunds.server";
import { db } from "~/utils/db.server";
import { callFunction, checkoutBody, readJson, signedInAdmin, uniqueEmail, type DiscountJson, type ErrorJson } from "../utils";

/**
 * What the shop reads back from its own columns is parsed, never assumed: a
 * discount code whose kind or scope this version does not know (a newer
 * instance wrote it, mid rolling restart) stops the checkout with a message
 * instead of pricing as 0% off, and a JSON column that does not hold what it
 * should is an error naming it, not a silent default (issue 36, item 3).
 */

const codes: string[] = [];

async function storedCode(kind: string, appliesTo = "all", terms: object = { buy: 2, free: 1 }) {
  const code = `NEWKIND-${randomUUID().slice(0, 6).toUpperCase()}`;
  codes.push(code);
  // Written as a newer instance would: a kind this version has never heard of, and its own figures.
  await db.discountCode.create({ data: { code, kind, appliesTo, terms, description: "Buy two, get one", active: true } });
  return code;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await db.discountCode.deleteMany({ where: { code: { in: codes.splice(0) } } });
});

describe("a discount code of a kind this version does not know", () => {
  it("is refused by validate-discount-code with a message, never taken as 0% off", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const code = await storedCode("bogo");
    const answer = await readJson<DiscountJson>(await callFunction("validate-discount-code", { code, email: uniqueEmail() }));
    expect(answer).toMatchObject({ valid: false, discount: 0 });
    expect(answer.error).toBe(`"${code}" cannot be used just now. Please try again in a few minutes.`);
    // The person on call is told which code and what was stored (no customer data).
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining(`${code} is stored with kind "bogo"`));
  });

  it("stops the checkout: no order is placed at a price this version cannot work out", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const code = await storedCode("percent", "drinks", { basisPoints: 1000 });
    const email = uniqueEmail();
    const response = await callFunction("simple-checkout", checkoutBody([["bar-chocolate-pb", 4]], { email, discountCode: code }));
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toBe(`"${code}" cannot be used just now. Please try again in a few minutes.`);
    expect(await db.order.count({ where: { email } })).toBe(0);
  });

  it("fails the owner's list of codes with an error naming it, rather than showing it as a percentage", async () => {
    const code = await storedCode("bogo");
    await expect(listDiscountCodes()).rejects.toThrow(`Discount code ${code} is stored with kind "bogo", which this version of the shop does not know`);
    const owner = await signedInAdmin("stored-terms", "owner");
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect((await callFunction("get-discount-codes", {}, { cookie: owner.cookie })).status).toBe(500);
  });
});

describe("a JSON column that does not hold what it should", () => {
  it("stops a checkout with a code whose stored figures are not its kind's, instead of taking nothing off", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    // A percent code whose terms lost their basis points (a hand edit): before decision 088 a missing figure priced as 0.
    const code = await storedCode("percent", "all", { percentOff: 10 });
    const answer = await readJson<DiscountJson>(await callFunction("validate-discount-code", { code, email: uniqueEmail() }));
    expect(answer).toMatchObject({ valid: false, discount: 0, error: `"${code}" cannot be used just now. Please try again in a few minutes.` });
    expect(console.error).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`Stored terms of discount code ${code} cannot be read.*terms\\.basisPoints`)));
    await expect(listDiscountCodes()).rejects.toThrow(`Stored terms of discount code ${code} cannot be read by this version of the shop`);
  });

  it("makes reading the shop's settings fail with the column named, instead of pricing on a broken zone", async () => {
    const before = await db.shopSettings.findUnique({ where: { id: 1 } });
    await db.shopSettings.upsert({
      where: { id: 1 },
      create: {
        id: 1,
        shippingFeeCents: 599,
        freeShippingThresholdCents: 5000,
        minimumOrderCents: 2000,
        kitchenLat: 34,
        kitchenLon: -118,
        zones: [{ name: "standard", upToMiles: "ten" }],
      },
      update: { zones: [{ name: "standard", upToMiles: "ten" }] },
    });
    try {
      await expect(readSettings()).rejects.toThrow(/Stored ShopSettings\.zones cannot be read by this version of the shop.*upToMiles/);
    } finally {
      if (before) await db.shopSettings.update({ where: { id: 1 }, data: { zones: before.zones ?? [] } });
      else await db.shopSettings.delete({ where: { id: 1 } });
    }
  });

  it("makes a refund's stored lines an error when one is malformed, instead of dropping it", () => {
    expect(storedLines(null)).toEqual([]);
    expect(storedLines([{ itemId: 3, quantity: 2 }])).toEqual([{ itemId: 3, quantity: 2 }]);
    expect(() =>
      storedLines([
        { itemId: 3, quantity: 2 },
        { itemId: "4", quantity: 1 },
      ]),
    ).toThrow(/Stored refund lines cannot be read by this version of the shop.*1\.itemId/);
  });
});
