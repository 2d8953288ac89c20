import type { SerializeFrom } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { catalogue } from "../../prisma/catalogue";
import { loader as checkoutLoader } from "~/routes/checkout/route";
import { loader as productLoader } from "~/routes/shop_.$id/route";
import { loader as sitemapLoader } from "~/routes/sitemap[.]xml";
import { db } from "~/utils/db.server";
import { browser, cartClient, readJson, SHOP_ORIGIN } from "../utils";

/**
 * The product pages (/shop/<id>) through their loader, the sitemap that lists
 * them, and the free-shipping hint as the server words it for the cart drawer
 * (root loader) and the checkout's order summary.
 */

type ProductJson = SerializeFrom<typeof productLoader>;
type CheckoutJson = SerializeFrom<typeof checkoutLoader>;

const visitor = browser();
const openProduct = (id: string) => visitor.get(productLoader, `/shop/${id}`, { params: { id } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("GET /shop/<id>", () => {
  it("answers 200 with the product, its facts and its Product JSON-LD", async () => {
    const response = await openProduct("bar-chocolate-pb");
    expect(response.status).toBe(200);
    const page = await readJson<ProductJson>(response);

    expect(page.product).toMatchObject({ id: "bar-chocolate-pb", name: "Chocolate Crunch", priceCents: 600, inStock: true });
    expect(page.facts?.allergens).toEqual(["peanuts", "milk"]);
    expect(page.facts?.advisories).toEqual(["honey-infants"]);
    expect(page.structuredData).toEqual({
      "@context": "https://schema.org",
      "@type": "Product",
      sku: "bar-chocolate-pb",
      name: "Chocolate Crunch",
      description: expect.stringContaining("fair-trade dark chocolate"),
      image: `${SHOP_ORIGIN}/images/products/bar-chocolate-pb.svg`,
      category: "Frozen yogurt bars",
      brand: { "@type": "Brand", name: "Chill PB" },
      url: `${SHOP_ORIGIN}/shop/bar-chocolate-pb`,
      offers: {
        "@type": "Offer",
        price: "6.00",
        priceCurrency: "USD",
        availability: "https://schema.org/InStock",
        url: `${SHOP_ORIGIN}/shop/bar-chocolate-pb`,
      },
    });
  });

  it("tells a sold-out product as OutOfStock, as the database has it now", async () => {
    await db.product.update({ where: { id: "bites-banana" }, data: { inStock: false } });
    try {
      const page = await readJson<ProductJson>(await openProduct("bites-banana"));
      expect(page.product.inStock).toBe(false);
      expect(page.structuredData.offers).toMatchObject({ price: "10.00", availability: "https://schema.org/OutOfStock" });
    } finally {
      await db.product.update({ where: { id: "bites-banana" }, data: { inStock: true } });
    }
  });

  it("shows what an operator changed in the database: name, price and description", async () => {
    const before = await db.product.findUniqueOrThrow({ where: { id: "bar-banana-pb" } });
    await db.product.update({ where: { id: "bar-banana-pb" }, data: { name: "Banana Blast Deluxe", priceCents: 650 } });
    try {
      const page = await readJson<ProductJson>(await openProduct("bar-banana-pb"));
      expect(page.product).toMatchObject({ name: "Banana Blast Deluxe", priceCents: 650 });
      expect(page.structuredData.offers.price).toBe("6.50");
    } finally {
      await db.product.update({ where: { id: "bar-banana-pb" }, data: { name: before.name, priceCents: before.priceCents } });
    }
  });

  it.each(["bar-nope", "BAR-CHOCOLATE-PB", "bar-chocolate-pb ", "%3Cscript%3E"])("answers 404 for the unknown id %j and logs the path", async (id) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const response = await openProduct(id);
    expect(response.status).toBe(404);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^404 Not Found: \/shop\//));
  });
});

describe("GET /sitemap.xml", () => {
  it("lists every product page of the catalogue", async () => {
    const response = await visitor.get(sitemapLoader, "/sitemap.xml");
    expect(response.status).toBe(200);
    const xml = await response.text();
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(catalogue).toHaveLength(6);
    for (const product of catalogue) expect(locations).toContain(`${SHOP_ORIGIN}/shop/${product.id}`);
    expect(locations).toContain(`${SHOP_ORIGIN}/shop`);
  });
});

describe("the free-shipping hint", () => {
  it("is worded by the server for the cart drawer, from the subtotal it priced", async () => {
    const cart = cartClient();
    expect((await cart.page()).cart.price?.freeShippingHint ?? null).toBeNull();

    await cart.post({ intent: "add", productId: "bar-strawberry-pb" });
    expect((await cart.page()).cart.price?.freeShippingHint ?? null).toBe("Add $44.00 for free shipping");

    await cart.post({ intent: "add", productId: "bites-variety", quantity: "4" });
    expect((await cart.page()).cart.price?.freeShippingHint ?? null).toBe("Add $4.00 for free shipping");

    await cart.post({ intent: "add", productId: "bar-strawberry-pb" });
    expect((await cart.page()).cart.price?.freeShippingHint ?? null).toBeNull();
  });

  it("is in the checkout's order summary below $50.00, and gone at $50.00", async () => {
    const shopper = browser();
    const cart = cartClient(shopper);
    await cart.post({ intent: "add", productId: "bites-strawberry", quantity: "4" });
    let page = await readJson<CheckoutJson>(await shopper.get(checkoutLoader, "/checkout"));
    expect(page.checkout?.summary).toMatchObject({ subtotalCents: 4000, shippingCents: 1000, freeShippingHint: "Add $10.00 for free shipping" });

    await cart.post({ intent: "add", productId: "bites-strawberry" });
    page = await readJson<CheckoutJson>(await shopper.get(checkoutLoader, "/checkout"));
    expect(page.checkout?.summary).toMatchObject({ subtotalCents: 5000, shippingCents: 0, freeShippingHint: null });
  });
});
