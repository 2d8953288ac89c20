import { describe, expect, it } from "vitest";
import { changeCatalog } from "~/models/catalog.server";
import { cartClient, readJson } from "../utils";
import type { CartPrice } from "~/models/pricing.server";

/**
 * The cart drawer renders the server's figures and computes none (decision 051):
 * every /cart answer and every page's root loader carry them, priced by
 * app/models/pricing.server.ts like the checkout's.
 */

type CartFigures = CartPrice;

type CartAnswer = { ok: boolean; price: CartFigures | null };

const soldOut = (productId: string, inStock: boolean) => changeCatalog((tx) => tx.product.update({ where: { id: productId }, data: { inStock } }));

describe("the cart's figures come from the server", () => {
  it("are in the /cart answer and the root loader: line totals, subtotal, shipping, total, minimum and free shipping", async () => {
    const cart = cartClient();
    const answer = await readJson<CartAnswer>(await cart.post({ intent: "add", productId: "bar-chocolate-pb", quantity: "3" }));
    const expected = {
      lines: [{ productId: "bar-chocolate-pb", quantity: 3, lineTotalCents: 1800 }],
      unavailable: [],
      subtotalCents: 1800,
      shippingCents: 1000,
      totalCents: 2800,
      minimumCents: 2000,
      remainingCents: 200,
      meetsMinimum: false,
      freeShippingRemainingCents: 3200,
      freeShippingHint: "Add $32.00 for free shipping",
      checkoutBlocked: null,
    };
    expect(answer.price).toEqual(expected);
    expect((await cart.page()).cart.price).toEqual(expected);

    const more = await readJson<CartAnswer>(await cart.post({ intent: "add", productId: "bites-variety", quantity: "4" }));
    expect(more.price).toMatchObject({
      lines: [
        { productId: "bar-chocolate-pb", quantity: 3, lineTotalCents: 1800 },
        { productId: "bites-variety", quantity: 4, lineTotalCents: 4000 },
      ],
      subtotalCents: 5800,
      shippingCents: 0,
      totalCents: 5800,
      remainingCents: 0,
      meetsMinimum: true,
      freeShippingRemainingCents: 0,
      freeShippingHint: null,
    });
  });

  it("has no figures for an empty cart", async () => {
    const cart = cartClient();
    expect((await cart.page()).cart.price).toBeNull();
    await cart.post({ intent: "add", productId: "bar-chocolate-pb" });
    const cleared = await readJson<CartAnswer>(await cart.post({ intent: "clear" }));
    expect(cleared.price).toBeNull();
  });

  it("leave a sold-out line out of every figure, name it with its reason and block the checkout (the reported repro)", async () => {
    const cart = cartClient();
    await cart.post({ intent: "add", productId: "bar-banana-pb", quantity: "4" });
    await soldOut("bar-banana-pb", false);
    try {
      const page = await cart.page();
      expect(page.cart.lines.map((line) => [line.product.id, line.quantity])).toEqual([["bar-banana-pb", 4]]);
      // The checkout says "Subtotal $0.00, Total $10.00": the drawer's figures are the same.
      expect(page.cart.price).toEqual({
        lines: [],
        unavailable: [{ productId: "bar-banana-pb", name: "Banana Blast", quantity: 4, reason: "sold-out" }],
        subtotalCents: 0,
        shippingCents: 1000,
        totalCents: 1000,
        minimumCents: 2000,
        remainingCents: 2000,
        meetsMinimum: false,
        freeShippingRemainingCents: 5000,
        freeShippingHint: null,
        checkoutBlocked: "Remove sold-out items to check out",
      });

      // A line still in stock is priced; the sold-out one still is not, and the /cart answer says so too.
      const answer = await readJson<CartAnswer>(await cart.post({ intent: "add", productId: "bites-variety", quantity: "3" }));
      expect(answer.price).toMatchObject({
        lines: [{ productId: "bites-variety", quantity: 3, lineTotalCents: 3000 }],
        unavailable: [{ productId: "bar-banana-pb", reason: "sold-out" }],
        subtotalCents: 3000,
        shippingCents: 1000,
        totalCents: 4000,
        meetsMinimum: true,
        freeShippingHint: "Add $20.00 for free shipping",
        checkoutBlocked: "Remove sold-out items to check out",
      });

      const removed = await readJson<CartAnswer>(await cart.post({ intent: "remove", productId: "bar-banana-pb" }));
      expect(removed.price).toMatchObject({ unavailable: [], subtotalCents: 3000, checkoutBlocked: null });
    } finally {
      await soldOut("bar-banana-pb", true);
    }
  });

  it("name a product the shop no longer has as gone, outside every figure", async () => {
    const cart = cartClient();
    await cart.post({ intent: "add", productId: "bites-banana", quantity: "3" });
    await changeCatalog((tx) => tx.product.create({ data: TEMPORARY_PRODUCT }));
    await cart.post({ intent: "add", productId: "bar-temporary", quantity: "2" });
    await changeCatalog((tx) => tx.product.delete({ where: { id: "bar-temporary" } }));

    const { cart: shown } = await cart.page();
    expect(shown.lines.map((line) => line.product.id)).toEqual(["bites-banana"]);
    expect(shown.price).toMatchObject({
      lines: [{ productId: "bites-banana", quantity: 3, lineTotalCents: 3000 }],
      unavailable: [{ productId: "bar-temporary", name: null, quantity: 2, reason: "gone" }],
      subtotalCents: 3000,
      checkoutBlocked: "Remove the items we no longer sell to check out",
    });
  });
});

/** A flavour sold for a while, then taken out of the catalogue (this file's database copy only). */
const TEMPORARY_PRODUCT = {
  id: "bar-temporary",
  name: "Pumpkin Spice",
  description: "A seasonal bar, gone once the season is over.",
  priceCents: 600,
  category: "bars",
  flavor: "Pumpkin",
  image: "/images/products/bar-banana-pb.webp",
  imageAlt: "A frozen yogurt bar",
  imageWidth: 800,
  imageHeight: 600,
  position: 99,
};
