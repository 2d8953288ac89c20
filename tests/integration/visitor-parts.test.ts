import { describe, expect, it } from "vitest";
import { action as cartAction } from "~/routes/cart";
import { anonymousPageParts, visitorPageParts } from "~/utils/visitor-parts.server";
import { callRoute, cookieFrom, formRequest } from "../utils";

/**
 * The parts of a cached page that are a visitor's own (decision 060). That a
 * filled page is byte for byte the page Remix renders is shown against a real
 * server in tests/e2e/page-cache.spec.ts; here, when a page may be filled at all.
 */

async function cartCookie(fields: Record<string, string>[], { html = false } = {}) {
  let cookie = "";
  for (const each of fields) {
    const response = await callRoute(cartAction, formRequest("/cart", each, { cookie, accept: html ? "text/html" : "*/*" }));
    cookie = cookieFrom(response as Response, "chillpb_cart") ?? cookie;
  }
  return cookie;
}

describe("a visitor's parts of a cached page", () => {
  it("are, for a visitor without a cart, the count 0 and an empty cart the server does not hold", () => {
    expect(anonymousPageParts).toEqual([
      'aria-label="Open cart, 0 items"',
      'data-testid="cart-count">0</span>',
      '{"root":{"cart":{"lines":[],"known":false,"price":null},',
    ]);
  });

  it("are the count, its label and the cart the server prices, escaped as Remix escapes the page's data", async () => {
    const one = await cartCookie([{ intent: "add", productId: "bites-variety", quantity: "1" }]);
    const [label, count, data] = (await visitorPageParts(one, ""))!;
    expect(label).toBe('aria-label="Open cart, 1 item"');
    expect(count).toBe('data-testid="cart-count">1</span>');
    expect(data).toMatch(/^\{"root":\{"cart":\{"lines":\[\{"product":\{"id":"bites-variety"/);
    expect(data).toContain('"subtotalCents":1000');

    const several = await cartCookie([
      { intent: "add", productId: "bar-strawberry-pb", quantity: "2" },
      { intent: "add", productId: "bites-banana", quantity: "3" },
    ]);
    const parts = (await visitorPageParts(`theme=dark; ${several}; chillpb_checkout=draft`, "category=bars"))!;
    expect(parts[0]).toBe('aria-label="Open cart, 5 items"');
    // "PB&J" in a description: the page's script holds it as \u0026, never a raw "&" or "<".
    expect(parts[2]).toContain("PB\\u0026J");
    expect(parts[2]).not.toMatch(/[<>&]/);
    const root = JSON.parse(`${parts[2]!.slice('{"root":'.length, -1)}}`) as { cart: unknown };
    expect(root.cart).toMatchObject({ known: true, price: { subtotalCents: 4200 } });
  });

  it("are none (the page is rendered) for the open drawer, a message waiting, or another shop cookie", async () => {
    const cart = await cartCookie([{ intent: "add", productId: "bites-variety", quantity: "2" }]);
    expect(await visitorPageParts(cart, "")).not.toBeNull();
    expect(await visitorPageParts(cart, "cart=open")).toBeNull();
    expect(await visitorPageParts(`${cart}; chillpb_toast=anything`, "")).toBeNull();
    expect(await visitorPageParts(`chillpb_admin=session; ${cart}`, "")).toBeNull();
    // A plain form post leaves 'Added to cart!' for the next page to show once.
    const flashed = await cartCookie([{ intent: "add", productId: "bites-variety", quantity: "2" }], { html: true });
    expect(await visitorPageParts(flashed, "")).toBeNull();
  });
});
