import type { DiscountCodeJson } from "~/lib/owner-records";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { seed } from "../../prisma/seed";
import { db } from "~/utils/db.server";
import { callFunction, checkoutBody, payOrder, placeOrder, readJson, signedInAdmin, uniqueEmail, type DiscountJson, type ErrorJson } from "../utils";

/**
 * The owner's discount codes (decisions 022, 026): get-discount-codes and
 * save-discount-code, and the limits and expiry checkout enforces.
 */

type CodeJson = DiscountCodeJson;
type SaveJson = { message: string; code: CodeJson };
type FormErrorJson = ErrorJson & { fieldErrors?: Record<string, string> };

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const newCode = () => `SPRING-${randomUUID().slice(0, 6).toUpperCase()}`;

function terms(overrides: Record<string, unknown> = {}) {
  return {
    code: newCode(),
    percentOff: 15,
    description: "15% off this spring",
    active: true,
    firstOrderOnly: false,
    usageLimit: null,
    expiresAt: null,
    ...overrides,
  };
}

async function owner() {
  return signedInAdmin("owner", "owner");
}

async function save(body: unknown, cookie: string) {
  return callFunction("save-discount-code", body, { cookie });
}

describe("get-discount-codes and save-discount-code guard the owner's codes", () => {
  it("answer 401 without a session and 403 for staff", async () => {
    expect((await callFunction("get-discount-codes", {})).status).toBe(401);
    expect((await callFunction("save-discount-code", terms())).status).toBe(401);
    const { cookie } = await signedInAdmin("staff", "staff");
    for (const [name, body] of [
      ["get-discount-codes", {}],
      ["save-discount-code", terms({ code: "STAFF-CODE" })],
    ] as const) {
      const response = await callFunction(name, body, { cookie });
      expect(response.status).toBe(403);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: "Only the shop's owner can do this." });
    }
    expect(await db.discountCode.findUnique({ where: { code: "STAFF-CODE" } })).toBeNull();
  });
});

describe("save-discount-code", () => {
  it.each([
    ["code", { code: "  " }, /3 to 32 characters/],
    ["code", { code: "TEN PERCENT" }, /letters, digits and single dashes/],
    ["code", { code: "X".repeat(33) }, /3 to 32 characters/],
    ["code", { code: undefined }, /Code is required/],
    ["percentOff", { percentOff: 0 }, /between 1 and 100/],
    ["percentOff", { percentOff: 101 }, /between 1 and 100/],
    ["percentOff", { percentOff: 12.5 }, /whole number/],
    ["description", { description: " " }, /cannot be empty/],
    ["description", { description: "x".repeat(121) }, /at most 120/],
    ["active", { active: "yes" }, /true or false/],
    ["firstOrderOnly", { firstOrderOnly: undefined }, /First order only is required/],
    ["usageLimit", { usageLimit: 0 }, /at least 1/],
    ["usageLimit", { usageLimit: 2.5 }, /whole number/],
    ["expiresAt", { expiresAt: "next friday" }, /ISO date and time/],
  ])("answers 400 for a bad %s (%j)", async (field, override, message) => {
    const { cookie } = await owner();
    const body = terms(override);
    const response = await save(body, cookie);
    expect(response.status).toBe(400);
    const json = await readJson<FormErrorJson>(response);
    expect(json.fieldErrors?.[field]).toMatch(message);
    expect(await db.auditEntry.count({ where: { subjectType: "discount-code" } })).toBe(0);
  });

  it("creates a code (trimmed, upper-cased), then updates it, recording both with who and the terms before and after", async () => {
    const { cookie, email } = await owner();
    const code = newCode();
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = await save(terms({ code: `  ${code.toLowerCase()} `, usageLimit: 5, expiresAt }), cookie);
    expect(created.status).toBe(200);
    expect(await readJson<SaveJson>(created)).toEqual({
      message: `${code} created.`,
      code: expect.objectContaining({ code, percentOff: 15, usageLimit: 5, expiresAt, expired: false, uses: 0, reserved: 0 }),
    });
    expect(await db.discountCode.findUniqueOrThrow({ where: { code } })).toMatchObject({ kind: "percent", terms: { basisPoints: 1500 }, usageLimit: 5 });

    const updated = await save(terms({ code, percentOff: 20, description: "20% off", active: false, usageLimit: null }), cookie);
    expect((await readJson<SaveJson>(updated)).message).toBe(`${code} saved.`);
    expect(await db.discountCode.findUniqueOrThrow({ where: { code } })).toMatchObject({
      kind: "percent",
      terms: { basisPoints: 2000 },
      active: false,
      usageLimit: null,
      expiresAt: null,
    });

    const entries = await db.auditEntry.findMany({ where: { subjectType: "discount-code", subjectId: code }, orderBy: { id: "asc" } });
    expect(entries.map((entry) => [entry.actorEmail, entry.action])).toEqual([
      [email, "discount-code.save"],
      [email, "discount-code.save"],
    ]);
    expect(entries[0]!.before).toBeNull();
    expect(JSON.parse(entries[0]!.after!)).toMatchObject({ code, percentOff: 15, usageLimit: 5, expiresAt });
    expect(JSON.parse(entries[1]!.before!)).toMatchObject({ percentOff: 15, active: true });
    expect(JSON.parse(entries[1]!.after!)).toMatchObject({ percentOff: 20, active: false, usageLimit: null, expiresAt: null });
  });

  it("keeps the stored usage limit and expiry when a save leaves them out; null clears them", async () => {
    const { cookie } = await owner();
    const code = newCode();
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect((await save(terms({ code, usageLimit: 5, expiresAt }), cookie)).status).toBe(200);

    // A client that only switches the code off sends no limit or expiry.
    const { usageLimit: _limit, expiresAt: _expiry, ...withoutLimits } = terms({ code, active: false });
    const updated = await save(withoutLimits, cookie);
    expect(updated.status).toBe(200);
    expect((await readJson<SaveJson>(updated)).code).toMatchObject({ active: false, usageLimit: 5, expiresAt });
    expect(await db.discountCode.findUniqueOrThrow({ where: { code } })).toMatchObject({ active: false, usageLimit: 5, expiresAt: new Date(expiresAt) });
    const entries = await db.auditEntry.findMany({ where: { subjectType: "discount-code", subjectId: code }, orderBy: { id: "asc" } });
    expect(JSON.parse(entries[1]!.after!)).toMatchObject({ active: false, usageLimit: 5, expiresAt });

    expect((await save(terms({ code, usageLimit: null, expiresAt: null }), cookie)).status).toBe(200);
    expect(await db.discountCode.findUniqueOrThrow({ where: { code } })).toMatchObject({ usageLimit: null, expiresAt: null });
  });

  it("a new code saved without a usage limit or expiry has neither", async () => {
    const { cookie } = await owner();
    const { usageLimit: _limit, expiresAt: _expiry, ...body } = terms();
    const created = await save(body, cookie);
    expect(created.status).toBe(200);
    expect((await readJson<SaveJson>(created)).code).toMatchObject({ code: body.code, usageLimit: null, expiresAt: null });
  });

  it("a save that leaves out the limit does not check it against the orders holding the code", async () => {
    const { cookie } = await owner();
    const code = newCode();
    await save(terms({ code, usageLimit: 2 }), cookie);
    await placeOrder([["bites-variety", 3]], { discountCode: code });
    await placeOrder([["bites-variety", 3]], { discountCode: code });
    const { usageLimit: _limit, ...body } = terms({ code, description: "Spring, reworded" });
    expect((await save(body, cookie)).status).toBe(200);
    expect(await db.discountCode.findUniqueOrThrow({ where: { code } })).toMatchObject({ usageLimit: 2, description: "Spring, reworded" });
  });

  it("with create: true makes a new code, and answers 409 for one that exists instead of overwriting it", async () => {
    const { cookie } = await owner();
    const code = newCode();
    const created = await save({ ...terms({ code, percentOff: 15, usageLimit: 5 }), create: true }, cookie);
    expect(created.status).toBe(200);
    expect((await readJson<SaveJson>(created)).message).toBe(`${code} created.`);

    // "New code" in the admin with a name already taken, typed in another case.
    const taken = await save({ ...terms({ code: ` ${code.toLowerCase()}`, percentOff: 90, usageLimit: null }), create: true }, cookie);
    expect(taken.status).toBe(409);
    const message = `A code named ${code} already exists.`;
    expect(await readJson<FormErrorJson>(taken)).toEqual({ error: `code: ${message}`, fieldErrors: { code: message } });
    expect(await db.discountCode.findUniqueOrThrow({ where: { code } })).toMatchObject({ kind: "percent", terms: { basisPoints: 1500 }, usageLimit: 5 });
    expect(await db.auditEntry.count({ where: { subjectType: "discount-code", subjectId: code } })).toBe(1);

    // Without the flag a save is still an update (the edit form, and clients written for the spec).
    expect((await save(terms({ code, percentOff: 20, usageLimit: 5 }), cookie)).status).toBe(200);
    expect((await db.discountCode.findUniqueOrThrow({ where: { code } })).terms).toEqual({ basisPoints: 2000 });
  });

  it("answers 409 for WELCOME10 created anew, and 400 for a create flag that is not true or false", async () => {
    const { cookie } = await owner();
    const taken = await save({ ...terms({ code: "WELCOME10", percentOff: 50 }), create: true }, cookie);
    expect(taken.status).toBe(409);
    expect((await readJson<FormErrorJson>(taken)).fieldErrors?.code).toBe("A code named WELCOME10 already exists.");
    expect((await db.discountCode.findUniqueOrThrow({ where: { code: "WELCOME10" } })).terms).toEqual({ basisPoints: 1000 });

    const bad = await save({ ...terms(), create: "yes" }, cookie);
    expect(bad.status).toBe(400);
    expect((await readJson<FormErrorJson>(bad)).fieldErrors?.create).toMatch(/true or false/);
  });

  it("refuses a usage limit below the orders already holding the code", async () => {
    const { cookie } = await owner();
    const code = newCode();
    await save(terms({ code }), cookie);
    await placeOrder([["bites-variety", 3]], { discountCode: code });
    await placeOrder([["bites-variety", 3]], { discountCode: code });
    const response = await save(terms({ code, usageLimit: 1 }), cookie);
    expect(response.status).toBe(400);
    expect((await readJson<FormErrorJson>(response)).fieldErrors?.usageLimit).toBe("2 orders hold this code already: the limit cannot be lower than that.");
    expect((await db.discountCode.findUniqueOrThrow({ where: { code } })).usageLimit).toBeNull();
    expect((await save(terms({ code, usageLimit: 2 }), cookie)).status).toBe(200);
  });
});

describe("get-discount-codes", () => {
  it("lists each code with its uses (paid orders) and reserved (unpaid orders in flight)", async () => {
    const { cookie } = await owner();
    const code = newCode();
    await save(terms({ code, usageLimit: 10 }), cookie);
    const paid = await placeOrder([["bites-variety", 3]], { discountCode: code });
    await payOrder(paid.sessionId);
    await placeOrder([["bites-variety", 3]], { discountCode: code });
    await placeOrder([["bites-variety", 3]], { discountCode: code });

    const response = await callFunction("get-discount-codes", {}, { cookie });
    expect(response.status).toBe(200);
    const { codes } = await readJson<{ codes: CodeJson[] }>(response);
    expect(codes.find((row) => row.code === code)).toMatchObject({ uses: 1, reserved: 2, usageLimit: 10, percentOff: 15 });
    expect(codes.find((row) => row.code === "WELCOME10")).toMatchObject({ percentOff: 10, firstOrderOnly: true, active: true });
  });
});

describe("a refunded order's use", () => {
  it("still counts: the list shows the use the checkout keeps refusing the code for", async () => {
    const { cookie } = await owner();
    const code = newCode();
    await save(terms({ code, usageLimit: 1 }), cookie);
    const placed = await placeOrder([["bites-variety", 3]], { discountCode: code });
    await payOrder(placed.sessionId);
    expect((await callFunction("refund-order", { orderId: placed.orderId, reason: "Melted in transit" }, { cookie })).status).toBe(200);

    const check = await callFunction("validate-discount-code", { code, email: uniqueEmail() });
    expect(await readJson<DiscountJson>(check)).toMatchObject({ valid: false, error: `"${code}" has already been used as often as it can be.` });
    const { codes } = await readJson<{ codes: CodeJson[] }>(await callFunction("get-discount-codes", {}, { cookie }));
    expect(codes.find((row) => row.code === code)).toMatchObject({ uses: 1, reserved: 0, usageLimit: 1, usesHeld: 1 });
  });
});

describe("limits and expiry at checkout", () => {
  it("a code with usageLimit 1 is used once, then refused", async () => {
    const { cookie } = await owner();
    const code = newCode();
    await save(terms({ code, usageLimit: 1 }), cookie);
    const first = await placeOrder([["bites-variety", 3]], { discountCode: code });
    await payOrder(first.sessionId);

    const check = await callFunction("validate-discount-code", { code, email: uniqueEmail() });
    expect(await readJson<DiscountJson>(check)).toMatchObject({ valid: false, error: `"${code}" has already been used as often as it can be.` });
    const second = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { discountCode: code }));
    // Used up is a conflict, whether the check sees it or the reservation does (checkout-trust.test.ts).
    expect(second.status).toBe(409);
    expect((await readJson<ErrorJson>(second)).error).toBe(`"${code}" has already been used as often as it can be.`);
    expect(await db.order.count({ where: { discountCode: code } })).toBe(1);
  });

  it("an expired code is refused by validate-discount-code and at placement", async () => {
    const { cookie } = await owner();
    const code = newCode();
    await save(terms({ code, expiresAt: new Date(Date.now() - 60_000).toISOString() }), cookie);

    const check = await callFunction("validate-discount-code", { code, email: uniqueEmail() });
    expect(await readJson<DiscountJson>(check)).toMatchObject({ valid: false, error: "This code has expired." });
    const placed = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { discountCode: code }));
    expect(placed.status).toBe(400);
    expect((await readJson<ErrorJson>(placed)).error).toBe("This code has expired.");
    expect((await db.discountCode.findUniqueOrThrow({ where: { code } })).usesHeld).toBe(0);

    const listed = await readJson<{ codes: CodeJson[] }>(await callFunction("get-discount-codes", {}, { cookie }));
    expect(listed.codes.find((row) => row.code === code)?.expired).toBe(true);
  });

  it("a code that expires between its check and its reservation is not taken", async () => {
    const code = newCode();
    const { cookie } = await owner();
    await save(terms({ code, expiresAt: new Date(Date.now() + 60_000).toISOString() }), cookie);
    // The check reads the code while it still applies; the expiry then passes before the reservation.
    const findUnique = db.discountCode.findUnique.bind(db.discountCode);
    vi.spyOn(db.discountCode, "findUnique").mockImplementationOnce(((args: Parameters<typeof findUnique>[0]) =>
      findUnique(args).then(async (found) => {
        await db.discountCode.update({ where: { code }, data: { expiresAt: new Date(Date.now() - 1000) } });
        return found;
      })) as unknown as typeof findUnique);
    const placed = await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]], { discountCode: code }));
    expect(placed.status).toBe(409);
    expect((await readJson<ErrorJson>(placed)).error).toBe("This code has expired.");
    expect(await db.order.count({ where: { discountCode: code } })).toBe(0);
    expect((await db.discountCode.findUniqueOrThrow({ where: { code } })).usesHeld).toBe(0);
  });
});

describe("the seed", () => {
  it("keeps an owner's changes to WELCOME10 and to the products", async () => {
    const { cookie } = await owner();
    await save(
      { code: "WELCOME10", percentOff: 12, description: "12% off your first order", active: false, firstOrderOnly: true, usageLimit: 500, expiresAt: null },
      cookie,
    );
    await callFunction("update-product", { productId: "bar-banana-pb", price: 6.25, inStock: false, name: "Banana Blast!" }, { cookie });
    await seed(db);
    expect(await db.discountCode.findUniqueOrThrow({ where: { code: "WELCOME10" } })).toMatchObject({
      terms: { basisPoints: 1200 },
      description: "12% off your first order",
      active: false,
      usageLimit: 500,
    });
    expect(await db.product.findUniqueOrThrow({ where: { id: "bar-banana-pb" } })).toMatchObject({ priceCents: 625, inStock: false, name: "Banana Blast!" });
  });
});
