import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CATALOG_CHECK_INTERVAL_MS, catalogVersion, changeCatalog, findProducts, listProducts } from "~/models/catalog.server";
import { createPrismaClient, db } from "~/utils/db.server";

/** Another server instance over the same database: its own client, its own writes. */
const otherInstance = createPrismaClient();
afterAll(() => otherInstance.$disconnect());

const priceOf = async (id: string) => (await listProducts()).find((product) => product.id === id)?.priceCents;
// The clock the catalogue reads: Date only (the database driver's timers stay real), moved on by hand.
beforeAll(() => vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true }));
afterAll(() => vi.useRealTimers());
const waitPastCheckInterval = () => vi.setSystemTime(Date.now() + CATALOG_CHECK_INTERVAL_MS + 100);

describe("the catalogue in memory", () => {
  it("is read once: a write that bypasses changeCatalog is not seen, one through it is seen at once", async () => {
    expect(await priceOf("bar-banana-pb")).toBe(600);
    // Not how products are changed: it proves the pages are not reading the table on every request.
    await db.product.update({ where: { id: "bar-banana-pb" }, data: { priceCents: 650 } });
    waitPastCheckInterval();
    expect(await priceOf("bar-banana-pb")).toBe(600);

    const before = await catalogVersion({ maxAgeMs: 0 });
    await changeCatalog((tx) => tx.product.update({ where: { id: "bar-banana-pb" }, data: { priceCents: 675 } }));
    expect(await catalogVersion()).toBe(before + 1);
    expect(await priceOf("bar-banana-pb")).toBe(675);
    await changeCatalog((tx) => tx.product.update({ where: { id: "bar-banana-pb" }, data: { priceCents: 600 } }));
  });

  it("takes another instance's change within the check interval, and prices carts with it at once", async () => {
    expect((await listProducts("bites")).map((product) => product.inStock)).toEqual([true, true, true]);
    // Carts and order prices read the version on every call.
    await changeCatalog((tx) => tx.product.update({ where: { id: "bites-banana" }, data: { priceCents: 1100 } }), otherInstance);
    expect((await findProducts(["bites-banana"]))[0]?.priceCents).toBe(1100);

    // Pages read it at most CATALOG_CHECK_INTERVAL_MS after their last read.
    await changeCatalog((tx) => tx.product.update({ where: { id: "bites-banana" }, data: { inStock: false } }), otherInstance);
    waitPastCheckInterval();
    const bites = await listProducts("bites");
    expect(bites.find((item) => item.id === "bites-banana")).toMatchObject({ inStock: false, priceCents: 1100 });
    await changeCatalog((tx) => tx.product.update({ where: { id: "bites-banana" }, data: { inStock: true, priceCents: 1000 } }));
  });

  it("keeps a write and its version together: a failed write moves neither", async () => {
    const before = await catalogVersion({ maxAgeMs: 0 });
    await expect(
      changeCatalog(async (tx) => {
        await tx.product.update({ where: { id: "bites-variety" }, data: { priceCents: 1 } });
        throw new Error("the operator's form was invalid after all");
      }),
    ).rejects.toThrow("invalid");
    expect(await catalogVersion({ maxAgeMs: 0 })).toBe(before);
    expect((await findProducts(["bites-variety"]))[0]?.priceCents).toBe(1000);
  });

  it("finds products by id in the order asked, each once, unknown ids left out", async () => {
    const found = await findProducts(["bites-variety", "nope", "bar-chocolate-pb", "bites-variety"]);
    expect(found.map((product) => product.id)).toEqual(["bites-variety", "bar-chocolate-pb"]);
  });
});
