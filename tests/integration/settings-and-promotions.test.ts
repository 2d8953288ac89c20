import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SettingsJson } from "~/models/settings.server";
import { changeCatalog } from "~/models/catalog.server";
import { priceOrder } from "~/models/pricing.server";
import { checkDiscountCode } from "~/models/pricing.server";
import { db } from "~/utils/db.server";
import { stripeMock } from "../../mocks/stripe";
import { callFunction, cartClient, checkoutBody, readJson, signedInAdmin, type CheckoutJson, type ErrorJson } from "../utils";

/**
 * The owner's terms and promotions (decisions 052, 053): get-settings and
 * save-settings, the code kinds, and every place a customer sees money
 * (the drawer, the order, the Stripe session) showing the engine's figures.
 */

type FormErrorJson = ErrorJson & { fieldErrors: Record<string, string> };
type ValidJson = {
  valid: boolean;
  error: string | null;
  kind?: string;
  amountOff?: number | null;
  minimumSubtotal?: number | null;
  appliesTo?: string;
  discount: number;
};

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  // Back to the requirements' numbers, through the catalogue's version so every cache forgets the test's terms.
  await changeCatalog((tx) => tx.shopSettings.deleteMany());
});

const DEFAULTS: SettingsJson = {
  shippingFee: 10,
  freeShippingThreshold: 50,
  minimumOrder: 20,
  kitchen: { lat: 34.0443, lon: -118.4509, address: null },
  zones: [
    { name: "standard", upToMiles: 10, minimumOrder: 0, shippingFee: null, freeShippingThreshold: null },
    { name: "extended", upToMiles: 20, minimumOrder: 50, shippingFee: null, freeShippingThreshold: null },
    { name: "premium", upToMiles: 25, minimumOrder: 100, shippingFee: null, freeShippingThreshold: null },
  ],
  // The requirements' promise (§9): weekdays, 2 days ahead, ordered by 2pm (decision 100).
  delivery: {
    days: ["mon", "tue", "wed", "thu", "fri"],
    leadDays: 2,
    cutoff: "14:00",
    windowDays: 14,
    capacityPerDay: null,
    closedDates: [],
    slots: [],
    zoneDays: {},
  },
  postalAddress: null,
};

const withZone = (index: number, change: Partial<SettingsJson["zones"][number]>): SettingsJson => ({
  ...DEFAULTS,
  zones: DEFAULTS.zones.map((zone, at) => (at === index ? { ...zone, ...change } : zone)),
});

const withDelivery = (change: Partial<SettingsJson["delivery"]>): SettingsJson => ({ ...DEFAULTS, delivery: { ...DEFAULTS.delivery, ...change } });

async function owner() {
  return (await signedInAdmin("owner", "owner")).cookie;
}

async function save(settings: unknown, cookie: string) {
  return callFunction("save-settings", settings, { cookie });
}

/** A ZIP code the geocoder stand-in puts this many miles due north of the kitchen (mocks/test-scenarios.ts). */
const milesOut = (miles: number) => `00${String(Math.round(miles * 10)).padStart(3, "0")}`;

async function order(orderId: string) {
  return db.order.findUniqueOrThrow({ where: { id: orderId } });
}

async function simpleCheckout(lines: [string, number][], options: { zipCode?: string; discountCode?: string } = {}) {
  const response = await callFunction("simple-checkout", checkoutBody(lines, options));
  return { response, body: response.status === 200 ? await readJson<CheckoutJson>(response) : await readJson<ErrorJson>(response) };
}

async function sessionTotal(orderId: string) {
  const session = (await stripeMock.allSessions()).find((candidate) => candidate.metadata.orderId === orderId);
  return session?.amount_total ?? null;
}

describe("get-settings and save-settings", () => {
  it("answer 401 without a session; staff may read the terms but not change them", async () => {
    expect((await callFunction("get-settings", {})).status).toBe(401);
    expect((await save(DEFAULTS, "")).status).toBe(401);
    const { cookie } = await signedInAdmin("staff", "staff");
    expect(await readJson<SettingsJson>(await callFunction("get-settings", {}, { cookie }))).toEqual(DEFAULTS);
    const refused = await save({ ...DEFAULTS, shippingFee: 1 }, cookie);
    expect(refused.status).toBe(403);
    expect(await readJson<ErrorJson>(refused)).toEqual({ error: "Only the shop's owner can do this." });
    expect(await db.shopSettings.count()).toBe(0);
  });

  it("start from the requirements' numbers, and save the whole shape with an audit entry", async () => {
    const cookie = await owner();
    expect(await readJson<SettingsJson>(await callFunction("get-settings", {}, { cookie }))).toEqual(DEFAULTS);
    const changed = { ...withZone(1, { freeShippingThreshold: 60, shippingFee: 12.5 }), shippingFee: 8, minimumOrder: 25 };
    const response = await save(changed, cookie);
    expect(response.status).toBe(200);
    expect(await readJson<SettingsJson>(response)).toEqual(changed);
    expect(await readJson<SettingsJson>(await callFunction("get-settings", {}, { cookie }))).toEqual(changed);
    const audit = await db.auditEntry.findFirstOrThrow({ where: { action: "settings.save" }, orderBy: { id: "desc" } });
    expect(audit).toMatchObject({ subjectType: "settings", subjectId: "shop" });
    expect(JSON.parse(audit.before ?? "null")).toMatchObject({ shippingFeeCents: 1000 });
    expect(JSON.parse(audit.after ?? "null")).toMatchObject({ shippingFeeCents: 800, minimumOrderCents: 2500 });
  });

  it("keep the owner's delivery schedule (issue 39), and the saved one when a save leaves it out", async () => {
    const cookie = await owner();
    const delivery: SettingsJson["delivery"] = {
      days: ["tue", "thu", "sat"],
      leadDays: 1,
      cutoff: "09:30",
      windowDays: 21,
      capacityPerDay: 40,
      closedDates: ["2026-12-25", "2026-12-24"],
      slots: [{ id: "morning", label: "9am–12pm", start: "09:00", end: "12:00", capacity: 15 }],
      zoneDays: { premium: ["sat"] },
    };
    const saved = await readJson<SettingsJson>(await save({ ...DEFAULTS, delivery }, cookie));
    // Closed dates in order, each once.
    expect(saved.delivery).toEqual({ ...delivery, closedDates: ["2026-12-24", "2026-12-25"] });
    const { delivery: _left, ...withoutSchedule } = { ...DEFAULTS, shippingFee: 9 };
    expect((await readJson<SettingsJson>(await save(withoutSchedule, cookie))).delivery).toEqual(saved.delivery);
    expect((await readJson<SettingsJson>(await callFunction("get-settings", {}, { cookie }))).delivery).toEqual(saved.delivery);
  });

  it.each<[string, SettingsJson, string, string]>([
    ["zones that overlap", withZone(1, { upToMiles: 10 }), "zones.1.upToMiles", "Must reach further than the zone before it (10 miles)"],
    ["a negative fee", { ...DEFAULTS, shippingFee: -1 }, "shippingFee", "Shipping fee cannot be negative"],
    ["fractions of a cent", { ...DEFAULTS, minimumOrder: 20.005 }, "minimumOrder", "Minimum order can have at most 2 decimals"],
    ["two zones of one name", withZone(2, { name: "Extended" }), "zones.2.name", 'Another zone is called "extended"'],
    ["no zone at all", { ...DEFAULTS, zones: [] }, "zones", "Keep at least one zone: without one the shop delivers nowhere"],
    ["a kitchen off the globe", { ...DEFAULTS, kitchen: { lat: 95, lon: 0, address: null } }, "kitchen.lat", "Latitude is between -90 and 90"],
    ["a zone's negative threshold", withZone(0, { freeShippingThreshold: -5 }), "zones.0.freeShippingThreshold", "Free shipping threshold cannot be negative"],
    // The delivery schedule (issue 39, decision 100).
    ["no delivery day", withDelivery({ days: [] }), "delivery.days", "Choose at least one day for delivery days"],
    ["a cutoff that is no time", withDelivery({ cutoff: "2pm" }), "delivery.cutoff", "Cutoff is a time from 00:00 to 23:59 (HH:MM)"],
    ["negative lead days", withDelivery({ leadDays: -1 }), "delivery.leadDays", "Lead days cannot be negative"],
    ["a day with no room", withDelivery({ capacityPerDay: 0 }), "delivery.capacityPerDay", "Orders a day is at least 1 order (leave it empty for no limit)"],
    ["a closed date that is no day", withDelivery({ closedDates: ["2026-02-30"] }), "delivery.closedDates.0", "No such day"],
    [
      "a window that ends before it starts",
      withDelivery({ slots: [{ id: "am", label: "Morning", start: "12:00", end: "09:00", capacity: null }] }),
      "delivery.slots.0.end",
      "Ends after it starts (12:00)",
    ],
    [
      "two windows of one id",
      withDelivery({
        slots: [
          { id: "am", label: "Morning", start: "09:00", end: "12:00", capacity: null },
          { id: "am", label: "Noon", start: "12:00", end: "14:00", capacity: 3 },
        ],
      }),
      "delivery.slots.1.id",
      'Another window is "am"',
    ],
    ["days for a zone the shop does not have", withDelivery({ zoneDays: { faraway: ["sat"] } }), "delivery.zoneDays.faraway", 'No zone is called "faraway"'],
  ])("refuse %s with a field error, and keep the terms as they were", async (_case, body, field, message) => {
    const cookie = await owner();
    const response = await save(body, cookie);
    expect(response.status).toBe(400);
    expect((await readJson<FormErrorJson>(response)).fieldErrors[field]).toBe(message);
    expect(await db.shopSettings.count()).toBe(0);
  });
});

describe("the kitchen by its street address (issue 38 item 3, decision 097)", () => {
  type Found = {
    found: true;
    lat: number;
    lon: number;
    source: string;
    address: string;
    zones: { name: string; places: { name: string; miles: number }[] }[];
    beyond: { name: string }[];
  };
  const street = { address: "1200 Highland Ave", city: "Manhattan Beach", state: "ca", zipCode: "90266" };

  it("finds an address with the shop's geocoder, says which zone reaches which place from there, and saves nothing", async () => {
    const cookie = await owner();
    const answer = await callFunction("locate-kitchen", street, { cookie });
    expect(answer.status).toBe(200);
    const found = await readJson<Found>(answer);
    expect(found).toMatchObject({ found: true, source: "geocoder", address: "1200 Highland Ave, Manhattan Beach, CA 90266" });
    expect(found.lat).toBeCloseTo(33.89, 1);
    expect(found.lon).toBeCloseTo(-118.4, 1);
    const places = (zone: string) => found.zones.find((one) => one.name === zone)!.places.map((place) => place.name);
    // From Manhattan Beach its neighbours are near, and Santa Monica is in the extended zone.
    expect(places("standard")).toEqual(expect.arrayContaining(["Manhattan Beach", "Hermosa Beach", "El Segundo", "Redondo Beach"]));
    expect(places("extended")).toContain("Westwood");
    expect(found.zones.find((zone) => zone.name === "standard")!.places).toContainEqual({ name: "Santa Monica", miles: 9.3 });
    expect(places("premium")).toEqual(["Malibu", "Pasadena"]);
    expect(found.beyond).toEqual([]);
    expect(await db.shopSettings.count()).toBe(0);
  });

  it("keeps the coordinates and the address once the settings are saved; the ZIP code places it when the geocoder fails", async () => {
    const cookie = await owner();
    const fallback = await readJson<Found>(await callFunction("locate-kitchen", { ...street, address: "1200 geocoder error Ave" }, { cookie }));
    expect(fallback.source).toBe("zip");
    const saved = await save({ ...DEFAULTS, kitchen: { lat: fallback.lat, lon: fallback.lon, address: fallback.address } }, cookie);
    expect(saved.status).toBe(200);
    const settings = await readJson<SettingsJson>(await callFunction("get-settings", {}, { cookie }));
    expect(settings.kitchen).toEqual({ lat: fallback.lat, lon: fallback.lon, address: "1200 geocoder error Ave, Manhattan Beach, CA 90266" });
    // Coordinates typed alone (the rare case) clear the address.
    await save({ ...DEFAULTS, kitchen: { lat: 34.05, lon: -118.45, address: null } }, cookie);
    expect((await readJson<SettingsJson>(await callFunction("get-settings", {}, { cookie }))).kitchen).toEqual({ lat: 34.05, lon: -118.45, address: null });
  });

  it("answers field errors for a bad address, 422 for one nothing places, and 403 for staff", async () => {
    const cookie = await owner();
    // Refused in checkout's words: the kitchen's address follows the rules a customer's does.
    const bad = await callFunction("locate-kitchen", { address: "", city: "LA", state: "", zipCode: "9026" }, { cookie });
    expect(bad.status).toBe(400);
    expect((await readJson<ErrorJson & { fieldErrors: Record<string, string> }>(bad)).fieldErrors).toEqual({
      address: "Required",
      state: "Required",
      zipCode: "Enter a 5-digit ZIP code",
    });
    const nowhere = await callFunction("locate-kitchen", { ...street, zipCode: "00000", address: "1 geocoder error Rd" }, { cookie });
    expect(nowhere.status).toBe(422);
    expect((await readJson<ErrorJson>(nowhere)).error).toMatch(/could not find that address/);
    const staff = (await signedInAdmin("staff", "staff")).cookie;
    expect((await callFunction("locate-kitchen", street, { cookie: staff })).status).toBe(403);
  });
});

describe("the shop follows the owner's terms", () => {
  it("the drawer's figures and every page's words follow at once; an order placed before keeps its figures", async () => {
    const cookie = await owner();
    const before = await simpleCheckout([["bites-variety", 3]]);
    const placedBefore = await order((before.body as CheckoutJson).orderId);
    expect(placedBefore).toMatchObject({ subtotalCents: 3000, shippingCents: 1000, totalCents: 4000 });

    expect(
      (await save({ ...DEFAULTS, shippingFee: 7.5, freeShippingThreshold: 40, minimumOrder: 15, zones: [{ ...DEFAULTS.zones[0]!, upToMiles: 30 }] }, cookie))
        .status,
    ).toBe(200);

    const cart = cartClient();
    await cart.post({ intent: "add", productId: "bar-chocolate-pb", quantity: "3" });
    const page = await cart.page();
    expect(page.terms).toEqual({
      shippingFeeCents: 750,
      freeShippingThresholdCents: 4000,
      minimumOrderCents: 1500,
      radiusMiles: 30,
      zones: [{ name: "standard", upToMiles: 30, minimumOrderCents: 0, shippingFeeCents: 750, freeShippingThresholdCents: 4000 }],
      delivery: { days: ["mon", "tue", "wed", "thu", "fri"], cutoff: "14:00", leadDays: 2 },
    });
    expect(page.cart.price).toMatchObject({
      subtotalCents: 1800,
      shippingCents: 750,
      totalCents: 2550,
      remainingCents: 0,
      freeShippingHint: "Add $22.00 for free shipping",
    });

    const after = await simpleCheckout([["bites-variety", 3]]);
    expect(await order((after.body as CheckoutJson).orderId)).toMatchObject({ subtotalCents: 3000, shippingCents: 750, totalCents: 3750 });
    expect(await order(placedBefore.id)).toMatchObject({ subtotalCents: 3000, shippingCents: 1000, totalCents: 4000 });
  });

  it("free shipping over $60 in the extended zone: a zone's threshold is priced once the address places the order there", async () => {
    const cookie = await owner();
    expect((await save(withZone(1, { freeShippingThreshold: 60 }), cookie)).status).toBe(200);
    // $55: free nearby (the shop's $50), charged 15 miles out (the extended zone's $60).
    const near = await simpleCheckout([
      ["bites-variety", 4],
      ["bar-banana-pb", 3],
    ]);
    expect(near.response.status).toBe(200);
    const nearOrder = await order((near.body as CheckoutJson).orderId);
    expect(nearOrder).toMatchObject({ deliveryZone: "standard", subtotalCents: 5800, shippingCents: 0, totalCents: 5800 });

    const far = await simpleCheckout(
      [
        ["bites-variety", 5],
        ["bar-banana-pb", 1],
      ],
      { zipCode: milesOut(15) },
    );
    expect(far.response.status).toBe(200);
    const farOrder = await order((far.body as CheckoutJson).orderId);
    expect(farOrder).toMatchObject({ deliveryZone: "extended", subtotalCents: 5600, shippingCents: 1000, totalCents: 6600 });
    expect(await sessionTotal(farOrder.id)).toBe(6600);

    const farEnough = await simpleCheckout([["bites-variety", 6]], { zipCode: milesOut(15) });
    expect(await order((farEnough.body as CheckoutJson).orderId)).toMatchObject({
      deliveryZone: "extended",
      subtotalCents: 6000,
      shippingCents: 0,
      totalCents: 6000,
    });
  });

  it("the owner's zones decide where the shop delivers, and what it charges there", async () => {
    const cookie = await owner();
    const zones = [{ name: "city", upToMiles: 5, minimumOrder: 0, shippingFee: 4, freeShippingThreshold: null }];
    expect((await save({ ...DEFAULTS, zones }, cookie)).status).toBe(200);
    const outside = await simpleCheckout([["bites-variety", 3]], { zipCode: milesOut(5.1) });
    expect(outside.response.status).toBe(400);
    expect((outside.body as ErrorJson).error).toBe("You're outside our 5-mile delivery area. Please contact us directly to arrange delivery.");
    const inside = await simpleCheckout([["bites-variety", 3]], { zipCode: milesOut(4.9) });
    expect(await order((inside.body as CheckoutJson).orderId)).toMatchObject({ deliveryZone: "city", shippingCents: 400, totalCents: 3400 });
  });
});

describe("promotions: a code's kind and conditions", () => {
  const code = () => `P-${randomUUID().slice(0, 6).toUpperCase()}`;
  async function saveCode(terms: Record<string, unknown>) {
    const cookie = await owner();
    const name = code();
    const response = await callFunction(
      "save-discount-code",
      { code: name, description: "A promotion", active: true, firstOrderOnly: false, usageLimit: null, expiresAt: null, ...terms },
      { cookie },
    );
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(200);
    return name;
  }
  const validate = async (name: string, items?: { productId: string; quantity: number }[]) =>
    readJson<ValidJson>(await callFunction("validate-discount-code", { code: name, email: `promo-${randomUUID()}@example.com`, ...(items && { items }) }));

  it("$5 off orders over $40: refused with the reason below, applied from $40 on, in the order and the Stripe session", async () => {
    const save5 = await saveCode({ kind: "amount", amountOff: 5, minimumSubtotal: 40 });
    expect(await validate(save5)).toMatchObject({ valid: true, kind: "amount", amountOff: 5, minimumSubtotal: 40, appliesTo: "all", discount: 0 });
    expect(await validate(save5, [{ productId: "bites-variety", quantity: 3 }])).toMatchObject({
      valid: false,
      error: `Spend $40.00 or more to use ${save5}.`,
    });
    expect(await validate(save5, [{ productId: "bites-variety", quantity: 4 }])).toMatchObject({ valid: true });
    // The spec's cart lines, as simple-checkout takes them, are judged the same.
    const specLines = (quantity: number) =>
      callFunction("validate-discount-code", {
        code: save5,
        email: `promo-${randomUUID()}@example.com`,
        items: [{ product: { id: "bites-variety", price: 10 }, quantity }],
      });
    expect(await readJson<ValidJson>(await specLines(3))).toMatchObject({ valid: false, error: `Spend $40.00 or more to use ${save5}.` });
    expect(await readJson<ValidJson>(await specLines(4))).toMatchObject({ valid: true });

    const below = await simpleCheckout([["bites-variety", 3]], { discountCode: save5 });
    expect(below.response.status).toBe(400);
    expect((below.body as ErrorJson).error).toBe(`Spend $40.00 or more to use ${save5}.`);

    const placed = await simpleCheckout(
      [
        ["bites-variety", 4],
        ["bar-banana-pb", 1],
      ],
      { discountCode: save5 },
    );
    const row = await order((placed.body as CheckoutJson).orderId);
    expect(row).toMatchObject({ discountCode: save5, subtotalCents: 4600, discountCents: 500, shippingCents: 1000, totalCents: 5100 });
    expect(await sessionTotal(row.id)).toBe(5100);
  });

  it("a bars-only percentage takes its share of the bars alone; bites alone are told to add a bar", async () => {
    const bars = await saveCode({ kind: "percent", percentOff: 50, appliesTo: "bars" });
    expect(await validate(bars, [{ productId: "bites-variety", quantity: 3 }])).toMatchObject({
      valid: false,
      error: `${bars} is for bars: add a bar to use it.`,
    });
    const placed = await simpleCheckout(
      [
        ["bites-variety", 3],
        ["bar-banana-pb", 3],
      ],
      { discountCode: bars },
    );
    expect(await order((placed.body as CheckoutJson).orderId)).toMatchObject({
      subtotalCents: 4800,
      discountCents: 900,
      shippingCents: 1000,
      totalCents: 4900,
    });
  });

  it("a free-shipping code waives the fee, and the Stripe session charges the lines alone", async () => {
    const free = await saveCode({ kind: "free-shipping" });
    const placed = await simpleCheckout([["bites-variety", 3]], { discountCode: free });
    const row = await order((placed.body as CheckoutJson).orderId);
    expect(row).toMatchObject({ discountCode: free, discountCents: 0, shippingCents: 0, totalCents: 3000 });
    expect(await sessionTotal(row.id)).toBe(3000);
  });

  it("a code that starts later is not valid yet; save-discount-code refuses an amount code without its amount", async () => {
    const later = await saveCode({ kind: "percent", percentOff: 10, startsAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(await validate(later)).toMatchObject({ valid: false, error: `"${later}" is not valid yet.` });
    const cookie = await owner();
    const refused = await callFunction(
      "save-discount-code",
      { code: code(), kind: "amount", description: "x", active: true, firstOrderOnly: false },
      { cookie },
    );
    expect(refused.status).toBe(400);
    expect((await readJson<FormErrorJson>(refused)).fieldErrors.amountOff).toBe("Amount off is required, more than $0.00");
  });

  it("preview-discount-code shows the engine's figures for a sample cart, and why a cart does not qualify", async () => {
    const cookie = await owner();
    const preview = (items: { productId: string; quantity: number }[]) =>
      callFunction("preview-discount-code", { code: "SAVE5", kind: "amount", amountOff: 5, minimumSubtotal: 40, items }, { cookie }).then((response) =>
        readJson<{ subtotal: number; discount: number; shipping: number; total: number; problem: string | null }>(response),
      );
    expect(await preview([{ productId: "bites-variety", quantity: 3 }])).toMatchObject({
      subtotal: 30,
      discount: 0,
      shipping: 10,
      total: 40,
      problem: "Spend $40.00 or more to use SAVE5.",
    });
    expect(await preview([{ productId: "bites-variety", quantity: 5 }])).toMatchObject({ subtotal: 50, discount: 5, shipping: 0, total: 45, problem: null });
    const { cookie: staff } = await signedInAdmin("staff", "staff");
    expect((await callFunction("preview-discount-code", { items: [{ productId: "bites-variety", quantity: 1 }] }, { cookie: staff })).status).toBe(403);
  });
});

describe("the drawer, the order and the Stripe session all show the engine's figures", () => {
  it("for random carts and codes on random terms", async () => {
    const cookie = await owner();
    const codes = await Promise.all([
      callFunction(
        "save-discount-code",
        { code: "PROP-PCT", kind: "percent", percentOff: 15, appliesTo: "bites", description: "p", active: true, firstOrderOnly: false },
        { cookie },
      ),
      callFunction(
        "save-discount-code",
        { code: "PROP-AMT", kind: "amount", amountOff: 7.5, minimumSubtotal: 30, description: "a", active: true, firstOrderOnly: false },
        { cookie },
      ),
      callFunction("save-discount-code", { code: "PROP-SHIP", kind: "free-shipping", description: "s", active: true, firstOrderOnly: false }, { cookie }),
    ]);
    expect(codes.map((response) => response.status)).toEqual([200, 200, 200]);
    const products = ["bar-chocolate-pb", "bar-strawberry-pb", "bar-banana-pb", "bites-variety", "bites-strawberry", "bites-banana"];

    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.constantFrom(...products), fc.integer({ min: 1, max: 12 })), { minLength: 1, maxLength: 4, selector: ([id]) => id }),
        fc.constantFrom(null, "PROP-PCT", "PROP-AMT", "PROP-SHIP"),
        fc.record({
          fee: fc.integer({ min: 0, max: 2000 }),
          freeFrom: fc.integer({ min: 0, max: 15000 }),
          zoneFee: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
        }),
        async (lines, discountCode, terms) => {
          const settings = {
            ...withZone(0, { shippingFee: terms.zoneFee === null ? null : terms.zoneFee / 100 }),
            shippingFee: terms.fee / 100,
            freeShippingThreshold: terms.freeFrom / 100,
            minimumOrder: 0,
          };
          expect((await save(settings, cookie)).status).toBe(200);
          const items = lines.map(([productId, quantity]) => ({ productId, quantity }));

          // The drawer: no zone known yet.
          const cart = cartClient();
          for (const { productId, quantity } of items) await cart.post({ intent: "add", productId, quantity: String(quantity) });
          const unzoned = (await priceOrder(items, null)).price;
          expect((await cart.page()).cart.price).toMatchObject({
            subtotalCents: unzoned.subtotalCents,
            shippingCents: unzoned.shippingCents,
            totalCents: unzoned.totalCents,
          });

          // The order and its Stripe session: priced in the address's zone (West LA: the first zone).
          const checked = discountCode ? await checkDiscountCode(discountCode, null, { items }) : null;
          const expected = (await priceOrder(items, checked?.ok ? checked.discount : null, "standard")).price;
          const placed = await simpleCheckout(lines, { ...(discountCode && { discountCode }) });
          if (checked && !checked.ok) {
            expect(placed.response.status).toBe(400);
            return;
          }
          expect(placed.response.status).toBe(200);
          const row = await order((placed.body as CheckoutJson).orderId);
          expect(row).toMatchObject({
            subtotalCents: expected.subtotalCents,
            discountCents: expected.discountCents,
            shippingCents: expected.shippingCents,
            totalCents: expected.totalCents,
          });
          expect(await sessionTotal(row.id)).toBe(expected.totalCents);
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);
});
