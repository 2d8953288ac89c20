import { changeCatalog } from "~/models/catalog.server";
import { afterEach, describe, expect, it } from "vitest";
import { catalogue } from "../../prisma/catalogue";
import { db } from "~/utils/db.server";
import { action as checkoutAction } from "~/routes/checkout/route";
import { browser, callFunction, cartClient, checkoutBody, readCartJson, readJson, shipping, signedInAdmin, type ErrorJson } from "../utils";

/**
 * The owner's products (decision 022): get-products and update-product, and what
 * a change means for the shop: a sold-out product cannot be added, ordered or
 * checked out; a new price reaches carts at once but never a placed order.
 */

type ProductJson = { id: string; name: string; description: string; price: number; inStock: boolean; image: string; history: HistoryJson[] };
type HistoryJson = { actorEmail: string; action: string; before: unknown; after: unknown };
type UpdateJson = { message: string; product: ProductJson };
type FormErrorJson = ErrorJson & { fieldErrors?: Record<string, string> };

const seeded = catalogue.find((product) => product.id === "bar-chocolate-pb")!;

// Every test leaves the product as the seed wrote it, with no history.
afterEach(async () => {
  const { name, description, priceCents, inStock } = seeded;
  // Through changeCatalog, as every product write: the in-memory catalogue follows.
  await changeCatalog((tx) => tx.product.update({ where: { id: seeded.id }, data: { name, description, priceCents, inStock } }));
  await db.auditEntry.deleteMany({ where: { subjectType: "product" } });
});

async function owner() {
  return (await signedInAdmin("owner", "owner")).cookie;
}

describe("get-products", () => {
  it("answers 401 without a session and 403 for staff", async () => {
    expect((await callFunction("get-products", {})).status).toBe(401);
    const { cookie } = await signedInAdmin("staff", "staff");
    const response = await callFunction("get-products", {}, { cookie });
    expect(response.status).toBe(403);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "Only the shop's owner can do this." });
  });

  it("lists the catalogue with requirements §3's fields, the price in dollars", async () => {
    const response = await callFunction("get-products", {}, { cookie: await owner() });
    expect(response.status).toBe(200);
    const { products } = await readJson<{ products: ProductJson[] }>(response);
    expect(products.map((product) => product.id)).toEqual([
      "bar-chocolate-pb",
      "bar-strawberry-pb",
      "bar-banana-pb",
      "bites-variety",
      "bites-strawberry",
      "bites-banana",
    ]);
    expect(products[0]).toMatchObject({
      id: "bar-chocolate-pb",
      name: "Chocolate Crunch",
      price: 6,
      category: "bars",
      flavor: "Chocolate PB",
      inStock: true,
      image: expect.stringMatching(/^\/images\//),
      history: [],
    });
    expect(products[3]).toMatchObject({ id: "bites-variety", price: 10 });
  });
});

describe("update-product", () => {
  it("answers 401 without a session and 403 for staff, changing nothing", async () => {
    expect((await callFunction("update-product", { productId: "bar-chocolate-pb", inStock: false })).status).toBe(401);
    const { cookie } = await signedInAdmin("staff", "staff");
    expect((await callFunction("update-product", { productId: "bar-chocolate-pb", inStock: false }, { cookie })).status).toBe(403);
    expect((await db.product.findUniqueOrThrow({ where: { id: "bar-chocolate-pb" } })).inStock).toBe(true);
  });

  it.each([
    [{ productId: "bar-chocolate-pb" }, "", /at least one of/],
    [{ productId: "bar-chocolate-pb", price: 0 }, "price", /between \$0\.50 and \$500\.00/],
    [{ productId: "bar-chocolate-pb", price: -6 }, "price", /between/],
    [{ productId: "bar-chocolate-pb", price: 6.005 }, "price", /at most 2 decimals/],
    [{ productId: "bar-chocolate-pb", price: 500.01 }, "price", /between/],
    [{ productId: "bar-chocolate-pb", price: "6" }, "price", /number of dollars/],
    [{ productId: "bar-chocolate-pb", name: "   " }, "name", /Name cannot be empty/],
    [{ productId: "bar-chocolate-pb", name: "x".repeat(81) }, "name", /at most 80/],
    [{ productId: "bar-chocolate-pb", description: "" }, "description", /Description cannot be empty/],
    [{ productId: "bar-chocolate-pb", description: "x".repeat(501) }, "description", /at most 500/],
    [{ productId: "bar-chocolate-pb", inStock: "no" }, "inStock", /true or false/],
    [{ price: 7 }, "productId", /required/],
  ])("answers 400 for a bad body (%#), naming the field", async (body, field, message) => {
    const cookie = await owner();
    const response = await callFunction("update-product", body, { cookie });
    expect(response.status).toBe(400);
    const json = await readJson<FormErrorJson>(response);
    expect(json.error).toMatch(message);
    if (field) expect(json.fieldErrors?.[field]).toMatch(message);
    expect(await db.product.findUniqueOrThrow({ where: { id: "bar-chocolate-pb" } })).toMatchObject({ priceCents: 600, name: "Chocolate Crunch" });
    expect(await db.auditEntry.count({ where: { subjectId: "bar-chocolate-pb" } })).toBe(0);
  });

  it("answers 404 for an unknown product", async () => {
    const response = await callFunction("update-product", { productId: "bar-pickle", inStock: false }, { cookie: await owner() });
    expect(response.status).toBe(404);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "No product with that id." });
  });

  it("stores the price as integer cents and records who changed which fields, before and after", async () => {
    const { cookie, email } = await signedInAdmin("owner", "owner");
    const response = await callFunction(
      "update-product",
      { productId: "bar-chocolate-pb", price: 6.5, name: "  Chocolate Crunch Deluxe ", description: "Now crunchier." },
      { cookie },
    );
    expect(response.status).toBe(200);
    const { message, product } = await readJson<UpdateJson>(response);
    expect(message).toBe("Chocolate Crunch Deluxe saved.");
    expect(product).toMatchObject({ id: "bar-chocolate-pb", name: "Chocolate Crunch Deluxe", price: 6.5, description: "Now crunchier.", inStock: true });
    expect(await db.product.findUniqueOrThrow({ where: { id: "bar-chocolate-pb" } })).toMatchObject({ priceCents: 650, name: "Chocolate Crunch Deluxe" });

    const entries = await db.auditEntry.findMany({ where: { subjectType: "product", subjectId: "bar-chocolate-pb" } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorEmail: email, action: "product.update" });
    expect(JSON.parse(entries[0]!.before!)).toEqual({ priceCents: 600, name: "Chocolate Crunch", description: expect.any(String) });
    expect(JSON.parse(entries[0]!.after!)).toEqual({ priceCents: 650, name: "Chocolate Crunch Deluxe", description: "Now crunchier." });
    expect(product.history).toEqual([
      expect.objectContaining({ actorEmail: email, after: { priceCents: 650, name: "Chocolate Crunch Deluxe", description: "Now crunchier." } }),
    ]);

    // Only the fields that changed are recorded; a save that changes nothing records nothing.
    await callFunction("update-product", { productId: "bar-chocolate-pb", price: 6.5, inStock: false }, { cookie });
    const again = await callFunction("update-product", { productId: "bar-chocolate-pb", inStock: false }, { cookie });
    expect((await readJson<UpdateJson>(again)).message).toBe("Chocolate Crunch Deluxe: nothing to change.");
    const trail = await db.auditEntry.findMany({ where: { subjectId: "bar-chocolate-pb" }, orderBy: { id: "asc" } });
    expect(trail.map((entry) => [JSON.parse(entry.before!), JSON.parse(entry.after!)])).toEqual([
      [expect.anything(), expect.anything()],
      [{ inStock: true }, { inStock: false }],
    ]);
    const listed = await readJson<{ products: ProductJson[] }>(await callFunction("get-products", {}, { cookie }));
    expect(listed.products[0]?.history.map((entry) => entry.after)).toEqual([{ inStock: false }, expect.objectContaining({ priceCents: 650 })]);
  });
});

describe("a sold-out product", () => {
  async function soldOut() {
    const response = await callFunction("update-product", { productId: "bar-chocolate-pb", inStock: false }, { cookie: await owner() });
    expect((await readJson<UpdateJson>(response)).message).toBe("Chocolate Crunch is now sold out.");
  }

  it("is refused by /cart, as a fetcher and as a plain form post", async () => {
    await soldOut();
    const cart = cartClient();
    const fetcher = await cart.post({ intent: "add", productId: "bar-chocolate-pb" });
    expect(fetcher.status).toBe(400);
    expect((await readCartJson(fetcher)).error).toBe("Chocolate Crunch is sold out.");

    const plain = await cart.post({ intent: "add", productId: "bar-chocolate-pb", redirectTo: "/shop" }, { html: true });
    expect(plain).toHaveRedirect("/shop");
    const { cartFlash } = await cart.page();
    expect(cartFlash).toEqual({ kind: "error", message: "Chocolate Crunch is sold out." });
    expect(await cart.items()).toEqual([]);
  });

  it("in the cart cannot grow: /cart refuses a higher quantity with the add's message, as a fetcher and as a plain form post", async () => {
    const cart = cartClient();
    await cart.post({ intent: "add", productId: "bar-chocolate-pb", quantity: "2" });
    await soldOut();

    const fetcher = await cart.post({ intent: "update", productId: "bar-chocolate-pb", quantity: "3" });
    expect(fetcher.status).toBe(400);
    expect(await readCartJson(fetcher)).toEqual({ ok: false, error: "Chocolate Crunch is sold out." });
    expect(await cart.items()).toEqual([["bar-chocolate-pb", 2]]);

    const plain = await cart.post({ intent: "update", productId: "bar-chocolate-pb", quantity: "5", redirectTo: "/shop?cart=open" }, { html: true });
    expect(plain).toHaveRedirect("/shop?cart=open");
    const { cartFlash } = await cart.page();
    expect(cartFlash).toEqual({ kind: "error", message: "Chocolate Crunch is sold out." });
    expect(await cart.items()).toEqual([["bar-chocolate-pb", 2]]);
  });

  it("in the cart can still go down, to nothing, and be removed", async () => {
    const cart = cartClient();
    await cart.post({ intent: "add", productId: "bar-chocolate-pb", quantity: "3" });
    await cart.post({ intent: "add", productId: "bites-variety", quantity: "2" });
    await soldOut();

    const fewer = await cart.post({ intent: "update", productId: "bar-chocolate-pb", quantity: "2" });
    expect(fewer.status).toBe(200);
    expect(await cart.items()).toEqual([
      ["bar-chocolate-pb", 2],
      ["bites-variety", 2],
    ]);
    // The same quantity again (a double submit) is not an increase.
    expect((await cart.post({ intent: "update", productId: "bar-chocolate-pb", quantity: "2" })).status).toBe(200);
    const plain = await cart.post({ intent: "update", productId: "bar-chocolate-pb", quantity: "1", redirectTo: "/shop" }, { html: true });
    expect(plain).toHaveRedirect("/shop");
    expect((await cart.page()).cartFlash).toBeNull();
    expect(await cart.items()).toEqual([
      ["bar-chocolate-pb", 1],
      ["bites-variety", 2],
    ]);
    expect((await cart.post({ intent: "update", productId: "bar-chocolate-pb", quantity: "0" })).status).toBe(200);
    expect(await cart.items()).toEqual([["bites-variety", 2]]);

    await cart.post({ intent: "update", productId: "bites-variety", quantity: "3" });
    expect(await cart.items()).toEqual([["bites-variety", 3]]);
  });

  it("is refused by simple-checkout with a message naming it, and nothing is ordered", async () => {
    await soldOut();
    const body = checkoutBody([
      ["bar-chocolate-pb", 2],
      ["bites-variety", 2],
    ]);
    const response = await callFunction("simple-checkout", body);
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toBe("Chocolate Crunch is sold out. Please remove it from your cart.");
    expect(await db.order.count({ where: { email: body.email } })).toBe(0);
  });

  it("is shown as sold out at checkout, which refuses the order until it is removed (keeping what was typed)", async () => {
    const visitor = browser();
    const cart = cartClient(visitor);
    await cart.post({ intent: "add", productId: "bar-chocolate-pb", quantity: "2" });
    await cart.post({ intent: "add", productId: "bites-variety", quantity: "3" });
    await soldOut();

    const fields = { ...shipping(), code: "", intent: "place-order", checkedAddress: "11600 wilshire blvd|los angeles|ca|90025" };
    const refused = await visitor.post(checkoutAction, "/checkout", fields);
    expect(refused.status).toBe(400);
    type State = {
      summary: { soldOut: unknown[]; cartProblem: string; subtotalCents: number; lines: { id: string }[] };
      message: { description: string };
      values: { email: string };
    };
    const state = await readJson<State>(refused);
    expect(state.summary.soldOut).toEqual([{ id: "bar-chocolate-pb", name: "Chocolate Crunch", image: expect.any(String), quantity: 2 }]);
    expect(state.summary.cartProblem).toBe("Chocolate Crunch is sold out. Please remove it from your cart.");
    expect(state.summary.lines.map((line) => line.id)).toEqual(["bites-variety"]);
    expect(state.message.description).toBe("Chocolate Crunch is sold out. Please remove it from your cart.");
    expect(await db.order.count({ where: { email: fields.email } })).toBe(0);

    // Without JavaScript the same button posts the whole form: the cart loses the line, the form keeps its values.
    const removed = await visitor.post(checkoutAction, "/checkout", { ...fields, intent: "remove-sold-out" }, { html: true });
    expect(removed.status).toBe(200);
    const after = await readJson<State>(removed);
    expect(after.summary.soldOut).toEqual([]);
    expect(after.summary.cartProblem).toBeNull();
    expect(after.values.email).toBe(fields.email);
    expect(await cart.items()).toEqual([["bites-variety", 3]]);
  });
});

describe("a price change", () => {
  it("applies to carts from then on, while a placed order keeps the price it was placed at", async () => {
    const cookie = await owner();
    const visitor = browser();
    const cart = cartClient(visitor);
    await cart.post({ intent: "add", productId: "bar-chocolate-pb", quantity: "4" });
    const placed = await callFunction("simple-checkout", checkoutBody([["bar-chocolate-pb", 4]]));
    const { orderId } = await readJson<{ orderId: string }>(placed);

    await callFunction("update-product", { productId: "bar-chocolate-pb", price: 7.25 }, { cookie });

    const { cart: shown } = await cart.page();
    expect(shown.lines[0]?.product).toMatchObject({ id: "bar-chocolate-pb", priceCents: 725 });
    const checkout = await visitor.post(checkoutAction, "/checkout", { ...shipping(), code: "", intent: "refresh" });
    expect((await readJson<{ summary: { subtotalCents: number } }>(checkout)).summary.subtotalCents).toBe(2900);

    const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    expect(order.items).toEqual([expect.objectContaining({ productId: "bar-chocolate-pb", unitPriceCents: 600, quantity: 4 })]);
    expect(order.subtotalCents).toBe(2400);
  });
});
