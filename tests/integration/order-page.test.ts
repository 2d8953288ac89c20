import { randomUUID } from "node:crypto";
import type { SerializeFrom } from "@remix-run/node";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loader as orderPageLoader } from "~/routes/orders.$id/route";
import { db } from "~/utils/db.server";
import { orderPagePath, orderPageToken } from "~/utils/order-link.server";
import { ORDER_LINK_DAYS } from "~/lib/orders";

const DAY = 24 * 60 * 60 * 1000;
import { browser, callFunction, orderFor, placeOrder, readJson, signedInAdmin } from "../utils";

/**
 * The customer's order page (decision 023): /orders/<id>?token=<HMAC of the id>,
 * linked from their emails. With the right token: the order's status and
 * dates, items, total, city and tracking, and nothing personal. Anything
 * else: the shop's 404, the same for an order that does not exist.
 */

type PageJson = SerializeFrom<typeof orderPageLoader>;

let owner: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("owner", "owner");
});
beforeEach(() => {
  // Every 404 is logged (its path, never the token).
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The order a page shows; fails the test when the page shows none (an expired link). */
async function readOrder(response: Response) {
  const { order } = await readJson<PageJson>(response);
  if (!order) throw new Error("the page shows no order");
  return order;
}

function openPage(path: string) {
  const { pathname } = new URL(path, "http://shop.test");
  return browser().get(orderPageLoader, path, { params: { id: pathname.split("/")[2] ?? "" } });
}

const customer = {
  firstName: "Philippa",
  lastName: "Quenneville",
  phone: "310-555-0177",
  address: "9876 Sepulveda Blvd",
  city: "Los Angeles",
  zipCode: "90025",
};

describe("the order page with its token", () => {
  it("opens from the confirmation email's link and shows status, dates, items, total and city, and nothing personal", async () => {
    const email = `philippa-${randomUUID().slice(0, 8)}@example.com`;
    const { orderId } = await orderFor({ ...customer, email }, [
      ["bites-variety", 2],
      ["bar-chocolate-pb", 2],
    ]);
    const confirmation = await db.outboxMessage.findFirstOrThrow({ where: { orderId, kind: "order-confirmation" } });
    const link = /http:\/\/shop\.test(\/orders\/\S+)/.exec(confirmation.text)?.[1];
    expect(link).toBe(orderPagePath(orderId));
    expect(confirmation.html).toContain(`href="http://shop.test/orders/${orderId}?token=${orderPageToken(orderId)}"`);

    const response = await openPage(link!);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const raw = await response.clone().text();
    const order = await readOrder(response);
    expect(order).toMatchObject({
      id: orderId,
      shortId: orderId.slice(0, 8),
      status: "pending",
      city: "Los Angeles",
      state: "CA",
      subtotalCents: 3200,
      shippingCents: 1000,
      totalCents: 4200,
      tracking: null,
      refund: null,
    });
    expect(order.items.map(({ name, quantity, lineCents }) => ({ name, quantity, lineCents }))).toEqual([
      { name: "Chocolate Mini Bites", quantity: 2, lineCents: 2000 },
      { name: "Chocolate Crunch", quantity: 2, lineCents: 1200 },
    ]);
    expect(order.steps.map(({ key, done }) => [key, done])).toEqual([
      ["placed", true],
      ["paid", true],
      ["preparing", false],
      ["shipped", false],
      ["delivered", false],
    ]);
    // Everything the page renders comes from this data: none of it is the customer's.
    for (const secret of [email, email.split("@")[0]!, "Philippa", "Quenneville", "555-0177", "Sepulveda", "90025", "mailbox"]) {
      expect(raw, secret).not.toContain(secret);
    }
  });

  it("shows each status change's date and the tracking once shipped, but not who made the change", async () => {
    const { orderId } = await orderFor();
    for (const body of [{ newStatus: "preparing" }, { newStatus: "shipped", carrier: "FedEx", trackingNumber: "771234567890" }]) {
      expect((await callFunction("update-order-status", { orderId, ...body }, { cookie: owner.cookie })).status).toBe(200);
    }
    const changes = await db.orderStatusChange.findMany({ where: { orderId }, orderBy: { id: "asc" } });

    const response = await openPage(orderPagePath(orderId));
    const raw = await response.clone().text();
    const order = await readOrder(response);
    expect(order.status).toBe("shipped");
    expect(order.steps.slice(2)).toEqual([
      { key: "preparing", label: "Preparing", at: changes[0]!.changedAt.toISOString(), done: true },
      { key: "shipped", label: "Shipped", at: changes[1]!.changedAt.toISOString(), done: true },
      { key: "delivered", label: "Delivered", at: null, done: false },
    ]);
    expect(order.tracking).toEqual({ carrier: "FedEx", number: "771234567890", url: "https://www.fedex.com/fedextrack/?trknbr=771234567890" });
    expect(raw).not.toContain(owner.email);

    // The "on its way" email links to this same page.
    const shipped = await db.outboxMessage.findFirstOrThrow({ where: { orderId, kind: "order-shipped" } });
    expect(shipped.text).toContain(`http://shop.test${orderPagePath(orderId)}`);
  });

  it("shows a refund", async () => {
    const { orderId } = await orderFor();
    expect((await callFunction("refund-order", { orderId, reason: "Box arrived crushed" }, { cookie: owner.cookie })).status).toBe(200);
    const response = await openPage(orderPagePath(orderId));
    const raw = await response.clone().text();
    const order = await readOrder(response);
    expect(order.refund).toEqual({ amountCents: order.totalCents, at: expect.any(String) });
    // It goes no further: the steps it reached, then the refund.
    expect(order.steps.map(({ key }) => key)).toEqual(["placed", "paid", "refunded"]);
    expect(order.steps.at(-1)).toEqual({ key: "refunded", label: "Refunded", at: order.refund!.at, done: true });
    // The owner's reason is the shop's own note.
    expect(raw).not.toContain("crushed");
  });
});

describe("without the right token it is the shop's 404, whether or not the order exists", () => {
  it.each([
    ["no token", (orderId: string) => `/orders/${orderId}`],
    ["an empty token", (orderId: string) => `/orders/${orderId}?token=`],
    ["a wrong token", (orderId: string) => `/orders/${orderId}?token=${"A".repeat(43)}`],
    ["a token cut short", (orderId: string) => `/orders/${orderId}?token=${orderPageToken(orderId).slice(0, 42)}`],
    [
      "a token with a letter changed",
      (orderId: string) => {
        const token = orderPageToken(orderId);
        return `/orders/${orderId}?token=${token.slice(0, 10)}${token[10] === "x" ? "y" : "x"}${token.slice(11)}`;
      },
    ],
    ["another order's token", (orderId: string) => `/orders/${orderId}?token=${orderPageToken(randomUUID())}`],
    ["the id in upper case with its token", (orderId: string) => `/orders/${orderId.toUpperCase()}?token=${orderPageToken(orderId)}`],
  ])("%s", async (_name, path) => {
    const { orderId } = await orderFor();
    const response = await openPage(path(orderId));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not Found");
  });

  it("an order that does not exist, even with a correctly signed token, answers the same 404", async () => {
    const unknown = randomUUID();
    const response = await openPage(orderPagePath(unknown));
    expect(response.status).toBe(404);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.text()).toBe("Not Found");
    expect((await openPage("/orders/not-an-id?token=abc")).status).toBe(404);
  });

  it("an unpaid checkout has no page (no link is ever sent for one)", async () => {
    const { orderId } = await placeOrder();
    expect((await openPage(orderPagePath(orderId))).status).toBe(404);
  });
});

describe("the link's time (decision 048)", () => {
  it("works until ORDER_LINK_DAYS after the order, then says it has expired with only the order's number: 410, nothing else", async () => {
    const { orderId } = await orderFor({ ...customer, email: `late-${randomUUID().slice(0, 8)}@example.com` });
    const placedAt = new Date(Date.now() - (ORDER_LINK_DAYS - 1) * DAY);
    await db.order.update({ where: { id: orderId }, data: { createdAt: placedAt } });
    expect((await openPage(orderPagePath(orderId))).status).toBe(200);

    await db.order.update({ where: { id: orderId }, data: { createdAt: new Date(Date.now() - (ORDER_LINK_DAYS + 1) * DAY) } });
    const response = await openPage(orderPagePath(orderId));
    expect(response.status).toBe(410);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await readJson<PageJson>(response);
    expect(body).toEqual({ order: null, expired: { shortId: orderId.slice(0, 8), on: expect.any(String) }, days: null });
    expect(JSON.stringify(body)).not.toContain("Los Angeles");
    // A wrong token on an old order is still the plain 404: the link's time tells nothing to someone without it.
    expect((await openPage(`/orders/${orderId}?token=${"x".repeat(43)}`)).status).toBe(404);
  });
});
