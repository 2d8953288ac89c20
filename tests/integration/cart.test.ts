import { describe, expect, it } from "vitest";
import { changeCatalog } from "~/models/catalog.server";
import { action as cartAction } from "~/routes/cart";
import { callRoute, cartClient, jsonRequest, readCartJson } from "../utils";

describe("/cart as a fetcher (JSON)", () => {
  it("adds, merges, updates, removes and clears", async () => {
    const cart = cartClient();

    let response = await cart.post({ intent: "add", productId: "bar-chocolate-pb" });
    expect(response.status).toBe(200);
    const body = await readCartJson(response);
    expect(body.ok).toBe(true);
    expect(body.lines[0]).toMatchObject({ quantity: 1, product: { id: "bar-chocolate-pb", priceCents: 600 } });

    await cart.post({ intent: "add", productId: "bar-chocolate-pb", quantity: "2" });
    await cart.post({ intent: "add", productId: "bites-banana" });
    expect(await cart.items()).toEqual([
      ["bar-chocolate-pb", 3],
      ["bites-banana", 1],
    ]);

    await cart.post({ intent: "update", productId: "bites-banana", quantity: "4" });
    expect(await cart.items()).toEqual([
      ["bar-chocolate-pb", 3],
      ["bites-banana", 4],
    ]);

    await cart.post({ intent: "update", productId: "bar-chocolate-pb", quantity: "0" });
    expect(await cart.items()).toEqual([["bites-banana", 4]]);

    await cart.post({ intent: "add", productId: "bar-strawberry-pb" });
    await cart.post({ intent: "remove", productId: "bites-banana" });
    expect(await cart.items()).toEqual([["bar-strawberry-pb", 1]]);

    response = await cart.post({ intent: "clear" });
    expect((await readCartJson(response)).lines).toEqual([]);
    // An empty cart is no cookie at all (the cached pages are for visitors without one), not an empty one kept 30 days.
    const setCookie = response.headers.getSetCookie().find((line) => line.startsWith("chillpb_cart="));
    expect(setCookie).toMatch(/^chillpb_cart=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
    expect(await cart.items()).toEqual([]);
  });

  it("prices lines from the catalogue, whatever the form says", async () => {
    const cart = cartClient();
    const response = await cart.post({ intent: "add", productId: "bites-variety", priceCents: "1", price: "0.01" });
    const body = await readCartJson(response);
    expect(body.lines[0]?.product.priceCents).toBe(1000);
  });

  describe("refuses bad input with a clear message and leaves the cart unchanged", () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ["an unknown product", { intent: "add", productId: "bar-pickle" }, /couldn't find that product/],
      ["quantity 0 on add", { intent: "add", productId: "bar-banana-pb", quantity: "0" }, /between 1 and 99/],
      ["quantity 1000", { intent: "add", productId: "bar-banana-pb", quantity: "1000" }, /between 1 and 99/],
      ["a quantity in words", { intent: "add", productId: "bar-banana-pb", quantity: "lots" }, /whole number/],
      ["a fractional quantity", { intent: "update", productId: "bar-banana-pb", quantity: "1.5" }, /whole number/],
      ["a hexadecimal quantity", { intent: "add", productId: "bar-banana-pb", quantity: "0x10" }, /whole number/],
      ["a quantity in exponent form", { intent: "add", productId: "bar-banana-pb", quantity: "1e1" }, /whole number/],
      ["a binary quantity", { intent: "update", productId: "bar-banana-pb", quantity: "0b11" }, /whole number/],
      ["an empty quantity", { intent: "update", productId: "bar-banana-pb", quantity: " " }, /whole number/],
      ["an update to 1000", { intent: "update", productId: "bar-banana-pb", quantity: "1000" }, /between 1 and 99/],
      ["an update of an unknown product", { intent: "update", productId: "nope", quantity: "2" }, /couldn't find/],
      ["an update of a product not in the cart", { intent: "update", productId: "bites-banana", quantity: "2" }, /not in your cart/],
      ["a missing product", { intent: "add" }, /Choose a product/],
      ["an unknown intent", { intent: "steal" }, /Unknown cart action/],
      ["more than 99 in one line", { intent: "add", productId: "bar-banana-pb", quantity: "99" }, /up to 99/],
    ];

    it.each(cases)("%s", async (_name, fields, message) => {
      const cart = cartClient();
      await cart.post({ intent: "add", productId: "bar-banana-pb", quantity: "2" });
      const before = await cart.items();

      const response = await cart.post(fields);
      expect(response.status).toBe(400);
      const body = await readCartJson(response);
      expect(body).toEqual({ ok: false, error: expect.stringMatching(message) });
      expect(await cart.items()).toEqual(before);
    });

    it("a body that is not a form", async () => {
      const cart = cartClient();
      await cart.post({ intent: "add", productId: "bar-banana-pb" });
      const response = await callRoute(cartAction, jsonRequest("/cart", "{not json"));
      expect(response.status).toBe(400);
      expect(await readCartJson(response)).toMatchObject({ ok: false });
    });
  });

  it("refuses to add a product that is out of stock", async () => {
    await changeCatalog((tx) => tx.product.update({ where: { id: "bites-strawberry" }, data: { inStock: false } }));
    try {
      const cart = cartClient();
      const response = await cart.post({ intent: "add", productId: "bites-strawberry" });
      expect(response.status).toBe(400);
      expect((await readCartJson(response)).error).toBe("Organic Strawberry Bites is sold out.");
      expect(await cart.items()).toEqual([]);
    } finally {
      await changeCatalog((tx) => tx.product.update({ where: { id: "bites-strawberry" }, data: { inStock: true } }));
    }
  });
});

describe("/cart restore from the browser's saved copy", () => {
  it("restores valid lines into an empty cart, dropping unknown products and bad quantities", async () => {
    const cart = cartClient();
    const saved = [
      { productId: "bar-banana-pb", quantity: 2 },
      { productId: "retired-flavor", quantity: 1 },
      { productId: "bites-variety", quantity: 500 },
      { productId: "bites-banana", quantity: 1 },
      "garbage",
    ];
    const response = await cart.post({ intent: "restore", items: JSON.stringify(saved) });
    expect(response.status).toBe(200);
    expect(await cart.items()).toEqual([
      ["bar-banana-pb", 2],
      ["bites-banana", 1],
    ]);
  });

  it("never overwrites a cart the server already has", async () => {
    const cart = cartClient();
    await cart.post({ intent: "add", productId: "bites-variety" });
    await cart.post({ intent: "restore", items: JSON.stringify([{ productId: "bar-banana-pb", quantity: 5 }]) });
    expect(await cart.items()).toEqual([["bites-variety", 1]]);
  });

  it("answers 400 for a saved copy that is not JSON", async () => {
    const cart = cartClient();
    const response = await cart.post({ intent: "restore", items: "[{oops" });
    expect(response.status).toBe(400);
    expect(await cart.items()).toEqual([]);
  });

  it("tells the browser whether it holds a cart for this visitor: an emptied cart is no cart (no cookie)", async () => {
    const cart = cartClient();
    expect((await cart.page()).cart.known).toBe(false);
    await cart.post({ intent: "add", productId: "bites-variety" });
    expect((await cart.page()).cart.known).toBe(true);
    // Emptied, the cookie is gone; the browser dropped its saved copy when it saw the empty cart, so nothing comes back.
    await cart.post({ intent: "clear" });
    expect((await cart.page()).cart.known).toBe(false);
  });
});

describe("/cart as a plain form post (no JavaScript)", () => {
  it("returns to a product's own page as it was, with no card to scroll to", async () => {
    const response = await cartClient().post({ intent: "add", productId: "bar-strawberry-pb", redirectTo: "/shop/bar-strawberry-pb" }, { html: true });
    expect(response).toHaveRedirect("/shop/bar-strawberry-pb");
  });

  it("redirects back to the card it came from and leaves the popup for the next page once", async () => {
    const cart = cartClient();
    const response = await cart.post({ intent: "add", productId: "bar-strawberry-pb", redirectTo: "/shop?category=bars" }, { html: true });
    expect(response.status).toBe(302);
    expect(response).toHaveRedirect("/shop?category=bars#product-bar-strawberry-pb");

    const first = await cart.page();
    expect(first.cartFlash).toEqual({ kind: "added", productId: "bar-strawberry-pb", quantity: 1 });
    expect(first.cart.lines.map((line) => line.product.id)).toEqual(["bar-strawberry-pb"]);
    expect((await cart.page()).cartFlash).toBeNull();
  });

  it("redirects with the error as a one-time message when the change is refused", async () => {
    const cart = cartClient();
    const response = await cart.post({ intent: "add", productId: "nope", redirectTo: "/shop" }, { html: true });
    expect(response.status).toBe(302);
    expect(response).toHaveRedirect("/shop");
    expect((await cart.page()).cartFlash).toEqual({ kind: "error", message: "Sorry, we couldn't find that product." });
  });

  it("never redirects to another site", async () => {
    const cart = cartClient();
    for (const redirectTo of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
      const response = await cart.post({ intent: "clear", redirectTo }, { html: true });
      expect(response).toHaveRedirect("/shop");
    }
  });

  it("ignores a cart cookie that was tampered with", async () => {
    const cart = cartClient();
    await cart.post({ intent: "add", productId: "bar-banana-pb" });
    cart.setCookie(`chillpb_cart=${Buffer.from(JSON.stringify({ items: [{ productId: "bar-banana-pb", quantity: 99 }] })).toString("base64")}`);
    expect(await cart.items()).toEqual([]);
  });
});
