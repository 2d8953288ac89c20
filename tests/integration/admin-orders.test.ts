import { randomBytes, randomUUID } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dashboardStats } from "~/models/admin-orders.server";
import type { DashboardStats, MaskedOrder } from "~/lib/orders";
import { nameKey } from "~/lib/name-search";
import { storedShipping } from "~/lib/shipping-fields";
import { db } from "~/utils/db.server";
import { sessionSecret } from "~/utils/env.server";
import { processOutbox } from "~/services/outbox.server";
import {
  ADMIN_COOKIE,
  callFunction,
  callRoute,
  functionHandler,
  orderFor,
  payOrder,
  placeOrder,
  readJson,
  SHOP_ORIGIN,
  shopRequest,
  signedInAdmin,
  type ErrorJson,
  type FunctionName,
} from "../utils";

/**
 * The operator's order functions (requirements §6-§7): signed-in admins only,
 * customer data masked on the server, strict request bodies, and a status
 * change that records who made it and queues exactly one customer email.
 */

// The JSON the functions send is exactly what the server module builds.
type MaskedOrderJson = MaskedOrder;
type OrdersJson = { orders: MaskedOrderJson[]; total: number };
type HistoryJson = { from: string; to: string; changed_by: string; changed_at: string };
type OrderJson = { order: MaskedOrderJson & { history: HistoryJson[] } };
type MessageJson = { message: string };
type DashboardJson = DashboardStats;
type DayJson = DashboardStats["last30Days"][number];

const DAY = 24 * 60 * 60 * 1000;

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Calls an admin function as the signed-in operator. */
function asAdmin(name: FunctionName, body: unknown) {
  return callFunction(name, body, { cookie: admin.cookie });
}

async function ordersJson(body: Record<string, unknown>) {
  const response = await asAdmin("get-orders", body);
  expect(response.status, await response.clone().text()).toBe(200);
  return readJson<OrdersJson>(response);
}

/** An email domain no other test uses, so that `q` finds exactly this test's orders. */
function uniqueDomain() {
  return `shop-${randomUUID().slice(0, 8)}.test`;
}

const emailAt = (domain: string, label = "customer") => `${label}-${randomUUID().slice(0, 6)}@${domain}`;

const laDay = (date: Date) => date.toLocaleDateString("en-CA", { timeZone: "America/Los_Angeles" });

function historyOf(orderId: string) {
  return db.orderStatusChange.findMany({ where: { orderId }, orderBy: { id: "asc" } });
}

function statusEmailsOf(orderId: string) {
  return db.outboxMessage.findMany({ where: { orderId, kind: { in: ["order-preparing", "order-shipped", "order-delivered", "order-pending"] } } });
}

describe("without a signed-in operator", () => {
  const someId = randomUUID();
  const cases: [FunctionName, Record<string, unknown>][] = [
    ["get-orders", {}],
    ["get-order", { orderId: someId }],
    ["update-order-status", { orderId: someId, newStatus: "shipped" }],
    ["get-dashboard", {}],
  ];

  it.each(cases)("%s answers 401 JSON without a cookie", async (name, body) => {
    const response = await callFunction(name, body);
    expect(response.status).toBe(401);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
  });

  it.each(cases)("%s answers 401 to a tampered or unknown session cookie", async (name, body) => {
    const value = admin.cookie.slice(ADMIN_COOKIE.length + 1);
    const tampered = `${ADMIN_COOKIE}=${value.slice(0, 5)}${value[5] === "x" ? "y" : "x"}${value.slice(6)}`;
    const signedUnknown = (await createCookie(ADMIN_COOKIE, { secrets: [sessionSecret] }).serialize(randomBytes(32).toString("base64url"))).split(";")[0];
    for (const cookie of [tampered, signedUnknown ?? "", `${ADMIN_COOKIE}=`, "some_other_cookie=1"]) {
      const response = await callFunction(name, body, { cookie });
      expect(response.status, cookie).toBe(401);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
    }
  });

  it("an unauthenticated status change changes nothing, even with a bad body", async () => {
    const { orderId } = await orderFor();
    const before = await db.outboxMessage.count({ where: { orderId } });
    expect((await callFunction("update-order-status", { orderId, newStatus: "shipped" })).status).toBe(401);
    expect((await callFunction("update-order-status", "{not json")).status).toBe(401);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("pending");
    expect(await historyOf(orderId)).toEqual([]);
    expect(await db.outboxMessage.count({ where: { orderId } })).toBe(before);
  });
});

describe("get-orders", () => {
  it("shows masked orders: no full email, surname, street or phone in the response", async () => {
    const local = `marguerite-${randomUUID().slice(0, 8)}`;
    const email = `${local}@example.com`;
    const customer = {
      firstName: "Marguerite",
      lastName: "Zebulonsky",
      email,
      phone: "310-555-0199",
      address: "742 Evergreen Terrace",
    };
    const { orderId } = await orderFor(customer, [
      ["bites-variety", 2],
      ["bar-chocolate-pb", 2],
    ]);

    const response = await asAdmin("get-orders", { pageSize: 100, includeUnpaid: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const text = await response.text();
    for (const secret of [email, local, "Zebulonsky", "Marguerite", "742 Evergreen", "Evergreen Terrace", "310-555-0199", "3105550199"]) {
      expect(text, `the response shows "${secret}"`).not.toContain(secret);
    }

    const { orders } = JSON.parse(text) as OrdersJson;
    const order = orders.find((candidate) => candidate.id === orderId);
    expect(order).toBeDefined();
    const stored = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order).toEqual({
      id: orderId,
      status: "pending",
      payment_status: "paid",
      created_at: stored.createdAt.toISOString(),
      total: stored.totalCents / 100,
      total_cents: stored.totalCents,
      items: expect.arrayContaining([
        { product: { id: "bites-variety", name: expect.any(String), price: 10 }, quantity: 2, line_total_cents: 2000 },
        { product: { id: "bar-chocolate-pb", name: expect.any(String), price: 6 }, quantity: 2, line_total_cents: 1200 },
      ]),
      customer_email: "m***@example.com",
      shipping_info: { firstName: "M.", lastName: "Z.", city: "Los Angeles", state: "CA" },
      chef_notified: false,
      preparing_sent: false,
      shipped_sent: false,
      delivered_sent: false,
      tracking: null,
      refund: null,
      refunded_cents: 0,
      refund_pending: null,
      // The day it was placed for (decision 100): the earliest, no windows offered.
      delivery_date: stored.deliveryDate!.toISOString().slice(0, 10),
      delivery_slot: null,
      delivery_slot_label: null,
    });
    expect(order?.items).toHaveLength(2);
    // Every order is masked the same way.
    for (const each of orders) {
      expect(each.customer_email).toMatch(/^[^@*]\*\*\*@[^@]+$/);
      expect(Object.keys(each.shipping_info).sort()).toEqual(["city", "firstName", "lastName", "state"]);
      expect(each.shipping_info.firstName).toMatch(/^.\.$/);
      expect(each.shipping_info.lastName).toMatch(/^.\.$/);
    }
  });

  it("lists every order that was paid by default, whatever went back since; the payment filter divides them; checkouts given up are the owner's", async () => {
    const domain = uniqueDomain();
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);
    const paid = await orderFor({ email: emailAt(domain) });
    const part = await orderFor({ email: emailAt(domain) });
    const refunded = await orderFor({ email: emailAt(domain) });
    const open = await orderFor({ email: emailAt(domain) }, undefined, { paid: false });
    const expired = await orderFor({ email: emailAt(domain) }, [["bar-banana-pb", 5]], { paid: false });
    const abandoned = await orderFor({ email: emailAt(domain) }, undefined, { paid: false });
    // The owner's own refund and cancellation (Stripe stood in): $5 of one back, another cancelled and refunded in full.
    const done = async (name: FunctionName, body: unknown) => expect((await asAdmin(name, body)).status).toBe(200);
    await done("refund-order", { orderId: part.orderId, amount: 5, reason: "One carton arrived soft" });
    await done("cancel-order", { orderId: refunded.orderId, reason: "Asked to cancel" });
    // Placed an hour apart, the refunded one between the two paid ones: the default list merges them by date.
    await db.order.update({ where: { id: paid.orderId }, data: { createdAt: at(1) } });
    await db.order.update({ where: { id: refunded.orderId }, data: { createdAt: at(2) } });
    await db.order.update({ where: { id: part.orderId }, data: { createdAt: at(3) } });
    await db.order.update({ where: { id: expired.orderId }, data: { createdAt: at(4), paymentStatus: "expired" } });
    await db.order.update({ where: { id: abandoned.orderId }, data: { createdAt: at(5), paymentStatus: "cancelled" } });
    const ids = (json: OrdersJson) => json.orders.map((order) => order.id);

    const byDefault = await ordersJson({ q: domain });
    expect(ids(byDefault)).toEqual([paid.orderId, refunded.orderId, part.orderId]);
    expect(byDefault.total).toBe(3);
    expect(ids(await ordersJson({ q: domain, payment: "all", sort: "date_asc" }))).toEqual([part.orderId, refunded.orderId, paid.orderId]);
    expect(ids(await ordersJson({ q: domain, payment: "paid" }))).toEqual([paid.orderId]);
    expect(ids(await ordersJson({ q: domain, payment: "part-refunded" }))).toEqual([part.orderId]);
    expect(ids(await ordersJson({ q: domain, payment: "refunded" }))).toEqual([refunded.orderId]);
    expect(ids(await ordersJson({ q: domain, status: "cancelled" }))).toEqual([refunded.orderId]);
    const refused = await asAdmin("get-orders", { q: domain, payment: "unpaid" });
    expect(refused.status).toBe(400);
    expect((await readJson<ErrorJson & { fieldErrors?: Record<string, string> }>(refused)).fieldErrors).toEqual({
      payment: "Invalid enum value. Expected 'all' | 'paid' | 'part-refunded' | 'refunded', received 'unpaid'",
    });

    // The checkouts given up unpaid, with what was in them; one still on its payment page is not given up yet.
    const givenUp = await asAdmin("get-given-up-checkouts", { q: domain });
    expect(givenUp.status).toBe(200);
    const givenUpJson = await readJson<OrdersJson>(givenUp);
    expect(givenUpJson.total).toBe(2);
    expect(givenUpJson.orders.map((order) => [order.id, order.payment_status, order.items.map((item) => [item.product.id, item.quantity])])).toEqual([
      [expired.orderId, "expired", [["bar-banana-pb", 5]]],
      [abandoned.orderId, "cancelled", [["bites-variety", 3]]],
    ]);
    expect((await ordersJson({ q: domain, includeUnpaid: true })).total).toBe(6);
    expect(open.orderId).toBeTruthy();

    // Staff see every order that was paid, masked, and not the checkouts never paid.
    const staff = await signedInAdmin("staff-given-up", "staff");
    const asStaff = (name: FunctionName, body: unknown) => callFunction(name, body, { cookie: staff.cookie });
    expect(ids(await readJson<OrdersJson>(await asStaff("get-orders", { q: domain })))).toEqual([paid.orderId, refunded.orderId, part.orderId]);
    for (const [name, body] of [
      ["get-given-up-checkouts", { q: domain }],
      ["get-orders", { q: domain, includeUnpaid: true }],
    ] as const) {
      const response = await asStaff(name, body);
      expect(response.status).toBe(403);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: "Only the shop's owner can do this." });
    }
  });

  it("finds a cancelled and refunded order by its number in the list as it first opens", async () => {
    const { orderId } = await orderFor({ email: emailAt(uniqueDomain()) });
    expect((await asAdmin("cancel-order", { orderId, reason: "Asked to cancel" })).status).toBe(200);
    const found = await ordersJson({ q: orderId.slice(0, 8) });
    expect(found.orders.map((order) => [order.id, order.status, order.payment_status])).toEqual([[orderId, "cancelled", "refunded"]]);
  });

  it("counts the list as it first opens exactly: every order paid or refunded, from the daily totals and the refunded", async () => {
    const counted = await db.order.count({ where: { paymentStatus: { in: ["paid", "refunded"] } } });
    const listed = await ordersJson({ pageSize: 1 });
    expect(listed).toMatchObject({ total: counted });
    expect(counted).toBeGreaterThan(0);
  });

  it("pages through the orders with page, pageSize and total", async () => {
    const domain = uniqueDomain();
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push((await orderFor({ email: emailAt(domain) })).orderId);

    const pages = [];
    for (const page of [1, 2, 3]) pages.push(await ordersJson({ q: domain, page, pageSize: 2 }));
    expect(pages.map((result) => result.total)).toEqual([5, 5, 5]);
    expect(pages.map((result) => result.orders.length)).toEqual([2, 2, 1]);
    const seen = pages.flatMap((result) => result.orders.map((order) => order.id));
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort()).toEqual([...ids].sort());

    const beyond = await ordersJson({ q: domain, page: 4, pageSize: 2 });
    expect(beyond).toEqual({ orders: [], total: 5, totalCapped: false });
    // The deepest page the server serves goes 10,000 orders deep: page 100 of 100 orders (decision 067).
    expect(await ordersJson({ q: domain, page: 100, pageSize: 100 })).toEqual({ orders: [], total: 5, totalCapped: false });
    expect((await ordersJson({ q: domain, pageSize: 100 })).orders).toHaveLength(5);

    // The default page size is 20.
    const defaults = await ordersJson({ q: domain });
    expect(defaults.orders).toHaveLength(5);
  });

  it("filters by status", async () => {
    const domain = uniqueDomain();
    const a = await orderFor({ email: emailAt(domain) });
    const b = await orderFor({ email: emailAt(domain) });
    const c = await orderFor({ email: emailAt(domain) });
    expect((await asAdmin("update-order-status", { orderId: b.orderId, newStatus: "shipped" })).status).toBe(200);
    expect((await asAdmin("update-order-status", { orderId: c.orderId, newStatus: "delivered" })).status).toBe(200);

    const ids = async (status: string | null) => (await ordersJson({ q: domain, status })).orders.map((order) => order.id).sort();
    expect(await ids("pending")).toEqual([a.orderId]);
    expect(await ids("shipped")).toEqual([b.orderId]);
    expect(await ids("delivered")).toEqual([c.orderId]);
    expect(await ids("preparing")).toEqual([]);
    expect(await ids(null)).toEqual([a.orderId, b.orderId, c.orderId].sort());
  });

  it("searches by order id prefix and by email domain", async () => {
    const domain = uniqueDomain();
    const mine = await orderFor({ email: emailAt(domain) });
    const other = await orderFor({ email: emailAt(uniqueDomain()) });

    const prefix = mine.orderId.slice(0, 8);
    const byId = await ordersJson({ q: prefix });
    expect(byId.orders.map((order) => order.id)).toEqual([mine.orderId]);
    expect((await ordersJson({ q: prefix.toUpperCase() })).orders.map((order) => order.id)).toEqual([mine.orderId]);
    expect((await ordersJson({ q: mine.orderId })).orders.map((order) => order.id)).toEqual([mine.orderId]);

    for (const q of [domain, `@${domain}`, domain.toUpperCase(), `  ${domain}  `]) {
      const result = await ordersJson({ q });
      expect(
        result.orders.map((order) => order.id),
        q,
      ).toEqual([mine.orderId]);
    }
    // Found whatever case the customer typed the address in, on every database.
    const shouted = await orderFor({ email: `Maya.Rivera@${domain.toUpperCase()}` });
    expect((await ordersJson({ q: domain })).orders.map((order) => order.id).sort()).toEqual([mine.orderId, shouted.orderId].sort());
    // A domain only matches whole: a tail of it finds nothing.
    expect((await ordersJson({ q: domain.slice(3) })).total).toBe(0);
    expect((await ordersJson({ q: other.orderId.slice(0, 8) })).orders.map((order) => order.id)).toEqual([other.orderId]);
  });

  it("finds a customer by whole email in another spelling, by name and by phone, for owners and staff, rows masked", async () => {
    const tag =
      randomUUID()
        .replace(/[^a-f]/g, "")
        .slice(0, 4) || "abcd";
    // A surname no other test uses (letters only), and a phone number of this test's own.
    const lastName = `Quill${tag}`;
    const digits = `31${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const typedPhone = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
    const mailbox = `maya.${tag}@gmail.com`;
    const mine = await orderFor({ email: `Maya.${tag}+treats@GoogleMail.com`, firstName: "Maya", lastName, phone: typedPhone });
    const namesake = await orderFor({ email: emailAt(uniqueDomain()), firstName: "Mayapple", lastName });
    await orderFor({ email: emailAt(uniqueDomain()), firstName: "Maya", lastName: "Other" });
    const staff = await signedInAdmin("staff-search", "staff");
    const asEither = [
      (body: Record<string, unknown>) => ordersJson(body),
      async (body: Record<string, unknown>) => {
        const response = await callFunction("get-orders", body, { cookie: staff.cookie });
        expect(response.status).toBe(200);
        return readJson<OrdersJson>(response);
      },
    ];
    for (const list of asEither) {
      const ids = async (q: string) => {
        const found = await list({ q, pageSize: 100 });
        // The count (SQL) and the page (Prisma) read the same search.
        expect(found.total, `the count for ${q}`).toBe(found.orders.length);
        return found.orders.map((order) => order.id).sort();
      };
      // The same mailbox however it is spelled: case, dots and +tag in Gmail, googlemail.com.
      for (const q of [mailbox, mailbox.toUpperCase(), `m.a.y.a.${tag}@gmail.com`, `maya.${tag}+other@googlemail.com`])
        expect(await ids(q), q).toEqual([mine.orderId]);
      expect(await ids(`maya.${tag}@yahoo.com`)).toEqual([]);
      // A name: each word the start of the first or the last name, in any case.
      expect(await ids(lastName)).toEqual([mine.orderId, namesake.orderId].sort());
      expect(await ids(`maya ${lastName.toLowerCase()}`)).toEqual([mine.orderId, namesake.orderId].sort());
      expect(await ids(`MAYA ${lastName}`)).toEqual([mine.orderId, namesake.orderId].sort());
      expect(await ids(`Mayap ${lastName}`)).toEqual([namesake.orderId]);
      expect(await ids(`${lastName}x`)).toEqual([]);
      // A phone number typed any way: its last ten digits.
      for (const q of [
        digits,
        typedPhone,
        `+1 ${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}`,
        `1-${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
      ]) {
        expect(await ids(q), q).toEqual([mine.orderId]);
      }
      // The rows stay masked for everyone.
      const [row] = (await list({ q: mailbox })).orders;
      expect(JSON.stringify(row)).not.toContain(lastName);
      expect(JSON.stringify(row)).not.toContain(digits.slice(3));
      expect(JSON.stringify(row)).not.toMatch(/maya\./i);
    }
  });

  it("finds a name written after an emoji or a mark by its letters, and by the name as written", async () => {
    const tag =
      randomUUID()
        .replace(/[^a-f]/g, "")
        .slice(0, 4) || "abcd";
    // The order: "😀Emoji 🍦Lopez" was found by nothing but its id, email and phone (the indexes keyed on lower(name)).
    const emoji = await orderFor({ email: emailAt(uniqueDomain()), firstName: `😀Emoji${tag}`, lastName: `🍦Lopez${tag}` });
    const marked = await orderFor({ email: emailAt(uniqueDomain()), firstName: "(Maya)", lastName: `👩‍🍳 Lopez${tag}` });
    const ids = async (q: string) => {
      const found = await ordersJson({ q, pageSize: 100 });
      expect(found.total, `the count for ${q}`).toBe(found.orders.length);
      return found.orders.map((order) => order.id).sort();
    };
    expect(await ids(`Lopez${tag}`)).toEqual([emoji.orderId, marked.orderId].sort());
    expect(await ids(`emoji${tag}`)).toEqual([emoji.orderId]);
    expect(await ids(`😀Emoji${tag} 🍦Lopez${tag}`)).toEqual([emoji.orderId]);
    expect(await ids(`maya lopez${tag}`)).toEqual([marked.orderId]);
    // A word of emoji alone says nothing of the name: the other words still find it, and emoji alone find nothing.
    expect(await ids(`🍦 Lopez${tag}`)).toEqual([emoji.orderId, marked.orderId].sort());
    expect(await ids("😀🍦")).toEqual([]);
    // The database's name_key (migration 028), which the indexes are keyed on, reads names as nameKey does.
    for (const name of ["😀Emoji", "👩‍🍳 (Ana)", "Élodie", "ÅSA", "李小龍", "O'Neil-Smith", "🍦", "  Ana"]) {
      const [row] = await db.$queryRaw<{ key: string }[]>`SELECT name_key(${name}) AS key`;
      expect(row?.key, name).toBe(nameKey(name));
    }
  });

  it("gives the owner an order's full customer details and records each look in the order's history; staff are refused", async () => {
    const customer = {
      email: emailAt(uniqueDomain()),
      firstName: "Maya",
      lastName: "Okafor",
      phone: "(310) 555-0177",
      address: "1200 Ocean Park Blvd",
      city: "Santa Monica",
      zipCode: "90405",
    };
    const { orderId } = await orderFor(customer);
    const response = await asAdmin("get-customer-details", { orderId });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await readJson<Record<string, unknown>>(response)).toEqual({ ...storedShipping({ ...customer, state: "CA" }), notes: [] });
    await asAdmin("get-customer-details", { orderId });

    // Each look, who and when, in the order's history; the order itself stays masked.
    const { order } = await readJson<OrderJson & { order: { details_shown: { shown_by: string; shown_at: string }[] } }>(
      await asAdmin("get-order", { orderId }),
    );
    expect(order.details_shown).toEqual([
      { shown_by: admin.email, shown_at: expect.any(String) },
      { shown_by: admin.email, shown_at: expect.any(String) },
    ]);
    expect(JSON.stringify(order)).not.toContain("Okafor");

    const staff = await signedInAdmin("staff-details", "staff");
    const refused = await callFunction("get-customer-details", { orderId }, { cookie: staff.cookie });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await readJson<ErrorJson>(refused))).not.toContain("Okafor");
    expect((await callFunction("get-customer-details", { orderId })).status).toBe(401);
    expect((await asAdmin("get-customer-details", { orderId: randomUUID() })).status).toBe(404);
    expect((await asAdmin("get-customer-details", { orderId: "abc" })).status).toBe(400);
    // Neither the refusal nor the unknown order left a record.
    expect(await db.auditEntry.count({ where: { subjectId: orderId, action: "order.customer-details" } })).toBe(2);
  });

  it("finds an order once when both its names start with the word, and a word that could be an id prefix as a name too", async () => {
    // Letters a-f only: the term is read both as an id prefix and as a name, each part of the search gathered apart.
    const word = `fade${randomUUID()
      .replace(/[^a-f]/g, "")
      .slice(0, 6)}`;
    const name = word[0]?.toUpperCase() + word.slice(1);
    const both = await orderFor({ email: emailAt(uniqueDomain()), firstName: name, lastName: `${name}son` });
    const last = await orderFor({ email: emailAt(uniqueDomain()), firstName: "Ada", lastName: name });
    await orderFor({ email: emailAt(uniqueDomain()), firstName: "Ada", lastName: "Other" });
    // Not paid: a term read two ways still keeps to the list's filters.
    const unpaid = await orderFor({ email: emailAt(uniqueDomain()), firstName: name, lastName: "Other" }, undefined, { paid: false });

    const found = await ordersJson({ q: word, pageSize: 100 });
    expect(found.orders.map((order) => order.id).sort()).toEqual([both.orderId, last.orderId].sort());
    expect(found.total).toBe(2);
    const pages = [await ordersJson({ q: name, pageSize: 1, page: 1 }), await ordersJson({ q: name, pageSize: 1, page: 2 })];
    expect(pages.flatMap((page) => page.orders.map((order) => order.id)).sort()).toEqual([both.orderId, last.orderId].sort());
    expect(pages.map((page) => page.total)).toEqual([2, 2]);
    // Two words: each the start of either name.
    expect((await ordersJson({ q: `ada ${word}` })).orders.map((order) => order.id)).toEqual([last.orderId]);
    expect((await ordersJson({ q: `${word}so ${word.toUpperCase()}` })).orders.map((order) => order.id)).toEqual([both.orderId]);
    // The words in either order, and a word that another one starts (read as the longer one's name).
    expect((await ordersJson({ q: `${word} ada` })).orders.map((order) => order.id)).toEqual([last.orderId]);
    expect((await ordersJson({ q: `fade ${word}` })).orders.map((order) => order.id).sort()).toEqual([both.orderId, last.orderId].sort());
    // Three words no two of which start alike: no order's two names can hold them.
    expect(await ordersJson({ q: `ada ${word} zed` })).toMatchObject({ orders: [], total: 0 });
    // Every filter holds for each way of reading the term.
    expect((await ordersJson({ q: word, includeUnpaid: true })).orders.map((order) => order.id).sort()).toEqual(
      [both.orderId, last.orderId, unpaid.orderId].sort(),
    );
    expect((await asAdmin("update-order-status", { orderId: last.orderId, newStatus: "shipped" })).status).toBe(200);
    const shipped = await ordersJson({ q: word, status: "shipped" });
    expect(shipped.orders.map((order) => order.id)).toEqual([last.orderId]);
    expect(shipped.total).toBe(1);
  });

  it("treats % and _ in the search as plain characters", async () => {
    await orderFor();
    expect((await ordersJson({ q: "%" })).total).toBe(0);
    expect((await ordersJson({ q: "_" })).total).toBe(0);
  });

  it("matches a domain whole, in any case, with Gmail's two names alike; wildcards match nothing", async () => {
    const domain = uniqueDomain(); // shop-1a2b3c4d.test
    const shouted = await orderFor({ email: `Ana.Lopez@${domain.toUpperCase()}` });
    const ids = async (q: string) => (await ordersJson({ q, pageSize: 100 })).orders.map((order) => order.id);
    for (const q of [domain, domain.toUpperCase(), `@${domain}`, ` ${domain.replace("shop", "SHOP")} `]) expect(await ids(q), q).toEqual([shouted.orderId]);
    // What a LIKE would have taken for wildcards, or a tail or head of the domain, finds nothing.
    for (const q of [
      domain.replace("-", "_"),
      domain.replace("-", "%"),
      `%${domain.slice(5)}`,
      "%.test",
      `_${domain.slice(1)}`,
      domain.slice(0, -1),
      `x${domain}`,
    ]) {
      expect((await ordersJson({ q })).total, q).toBe(0);
    }

    const gmail = await orderFor({ email: `ana.lopez.${randomUUID().slice(0, 6)}@GoogleMail.com` });
    expect(await ids("googlemail.com")).toContain(gmail.orderId);
    expect(await ids("gmail.com")).toContain(gmail.orderId);
  });

  it("finds exactly the paid orders whose id starts with the prefix, in any case", async () => {
    const { orderId } = await orderFor();
    await orderFor(undefined, undefined, { paid: false });
    // The default list holds every order that was paid: refunded ones too (decision 093).
    const paid = await db.order.findMany({ where: { paymentStatus: { in: ["paid", "refunded"] } }, select: { id: true, firstName: true, lastName: true } });
    // A prefix of letters only ("a", "fade") is a name too: it also finds the orders a first or last name of which starts with it.
    const matching = (prefix: string) =>
      paid
        .filter(
          (order) =>
            order.id.startsWith(prefix) || (/^[a-z]+$/.test(prefix) && [order.firstName, order.lastName].some((name) => name.toLowerCase().startsWith(prefix))),
        )
        .map((order) => order.id);
    // Up to and across a dash, the whole id, and one character past it.
    for (const prefix of [orderId.slice(0, 1), orderId.slice(0, 2), orderId.slice(0, 8), orderId.slice(0, 10), orderId, `${orderId}0`]) {
      const expected = matching(prefix).sort();
      for (const q of [prefix, prefix.toUpperCase()]) {
        const found = await ordersJson({ q, pageSize: 100 });
        expect(found.total, q).toBe(expected.length);
        expect(found.orders.map((order) => order.id).sort(), q).toEqual(expected.slice(0, 100));
      }
    }
    for (const q of [`${orderId.slice(0, 8)}%`, `${orderId.slice(0, 7)}_`, `%${orderId.slice(1, 8)}`]) expect((await ordersJson({ q })).total, q).toBe(0);

    // A prefix of a digit and letters is an id's start only, never a name's: "7a" once found every name starting "a"
    // (read as the name key "a"), which made this test fail whenever the random id above started so.
    const lastName = `Quill${randomUUID()
      .replace(/[^a-f]/g, "")
      .slice(0, 6)}`;
    const named = await orderFor({ lastName });
    const digitFirst = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"].find((digit) => !named.orderId.startsWith(digit))!;
    const idsFor = async (q: string) => (await ordersJson({ q, pageSize: 100 })).orders.map((order) => order.id);
    expect(await idsFor(`${digitFirst}${lastName.toLowerCase()}`)).not.toContain(named.orderId);
    expect(await idsFor(lastName.toLowerCase())).toContain(named.orderId);
  });

  it("sorts by total and by date", async () => {
    const domain = uniqueDomain();
    // Totals: $26, $30, $50 of products; placed in a different order from their totals.
    const middle = await orderFor({ email: emailAt(domain) }, [["bites-variety", 3]]);
    const large = await orderFor({ email: emailAt(domain) }, [["bites-variety", 5]]);
    const small = await orderFor({ email: emailAt(domain) }, [
      ["bites-variety", 2],
      ["bar-chocolate-pb", 1],
    ]);
    // Distinct, known creation times: large is the oldest, small the newest.
    const base = Date.now() - 10 * DAY;
    const created = new Map([
      [large.orderId, base],
      [middle.orderId, base + DAY],
      [small.orderId, base + 2 * DAY],
    ]);
    for (const [id, time] of created) await db.order.update({ where: { id }, data: { createdAt: new Date(time) } });

    const sorted = async (sort: string) => (await ordersJson({ q: domain, sort })).orders;
    const byTotalDesc = await sorted("total_desc");
    expect(byTotalDesc.map((order) => order.id)).toEqual([large.orderId, middle.orderId, small.orderId]);
    expect(byTotalDesc[0]!.total_cents).toBeGreaterThan(byTotalDesc[1]!.total_cents);
    expect(byTotalDesc[1]!.total_cents).toBeGreaterThan(byTotalDesc[2]!.total_cents);
    expect((await sorted("total_asc")).map((order) => order.id)).toEqual([small.orderId, middle.orderId, large.orderId]);
    expect((await sorted("date_desc")).map((order) => order.id)).toEqual([small.orderId, middle.orderId, large.orderId]);
    expect((await sorted("date_asc")).map((order) => order.id)).toEqual([large.orderId, middle.orderId, small.orderId]);
    // Newest first by default.
    expect((await ordersJson({ q: domain })).orders.map((order) => order.id)).toEqual([small.orderId, middle.orderId, large.orderId]);
  });
});

describe("bad requests", () => {
  let orderId: string;
  beforeEach(async () => {
    ({ orderId } = await orderFor());
  });

  async function expect400(name: FunctionName, body: unknown, pattern?: RegExp) {
    const response = await asAdmin(name, body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    const { fieldErrors, ...json } = await readJson<ErrorJson & { fieldErrors?: Record<string, string> }>(response);
    // The first wrong field's message, and (for a body that is JSON) every field's by its path: nothing else.
    expect(json).toEqual({ error: expect.any(String) });
    for (const message of Object.values(fieldErrors ?? {})) expect(message).toEqual(expect.any(String));
    if (pattern) expect(json.error).toMatch(pattern);
  }

  it("update-order-status refuses an unknown or missing status and a malformed order id", async () => {
    await expect400("update-order-status", { orderId, newStatus: "cancelled" }, /newStatus/);
    await expect400("update-order-status", { orderId, newStatus: "SHIPPED" }, /newStatus/);
    await expect400("update-order-status", { orderId }, /newStatus/);
    await expect400("update-order-status", { orderId: "12345", newStatus: "shipped" }, /orderId/);
    await expect400("update-order-status", { orderId: `${orderId}' OR 1=1 --`, newStatus: "shipped" }, /orderId/);
    await expect400("update-order-status", { newStatus: "shipped" }, /orderId/);
    await expect400("update-order-status", '{"orderId": ', /JSON/);
    await expect400("update-order-status", "[1, 2]");
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("pending");
    expect(await historyOf(orderId)).toEqual([]);
    expect(await statusEmailsOf(orderId)).toEqual([]);
  });

  it("get-order refuses a malformed order id and malformed JSON", async () => {
    await expect400("get-order", { orderId: "not-a-uuid" }, /orderId/);
    await expect400("get-order", {}, /orderId/);
    await expect400("get-order", { orderId: 42 }, /orderId/);
    await expect400("get-order", "{oops", /JSON/);
  });

  it("get-orders refuses unknown keys, oversized pages and wrong types", async () => {
    await expect400("get-orders", { pageSize: 1000 }, /pageSize/);
    await expect400("get-orders", { pageSize: 101 }, /pageSize/);
    await expect400("get-orders", { page: 10_001 }, /page/);
    await expect400("get-orders", { page: 1.5 }, /page/);
    await expect400("get-orders", { pageSize: 0 }, /pageSize/);
    await expect400("get-orders", { page: 0 }, /page/);
    await expect400("get-orders", { page: "2" }, /page/);
    await expect400("get-orders", { paymentStatus: "unpaid" }, /unrecognized/i);
    await expect400("get-orders", { where: { email: { contains: "@" } } }, /unrecognized/i);
    await expect400("get-orders", { sort: "email_asc" }, /sort/);
    await expect400("get-orders", { status: "lost" }, /status/);
    await expect400("get-orders", { payment: "unpaid" }, /payment/);
    await expect400("get-orders", { q: "x".repeat(101) }, /q/);
    await expect400("get-orders", '{"page": 1,}', /JSON/);
  });

  it("answers 415 to a body that is not JSON", async () => {
    const response = await callFunction("get-orders", "page=1", { cookie: admin.cookie, contentType: "application/x-www-form-urlencoded" });
    expect(response.status).toBe(415);
  });

  it("get-orders and get-dashboard take a POST with no body at all, as the spec's 'Body: none' says", async () => {
    for (const name of ["get-orders", "get-dashboard"] as const) {
      const response = await callRoute(functionHandler(name), shopRequest(`/functions/v1/${name}`, { method: "POST", cookie: admin.cookie }));
      expect(response.status, name).toBe(200);
    }
    const firstPage = await readJson<{ orders: unknown[] }>(
      await callRoute(functionHandler("get-orders"), shopRequest("/functions/v1/get-orders", { method: "POST", cookie: admin.cookie })),
    );
    expect(firstPage.orders.length).toBeGreaterThan(0);
  });

  it("still answers 415 to a body with no Content-Type", async () => {
    const request = new Request(`${SHOP_ORIGIN}/functions/v1/get-orders`, { method: "POST", headers: { Cookie: admin.cookie }, body: "page=1" });
    request.headers.delete("Content-Type");
    const response = await callRoute(functionHandler("get-orders"), request);
    expect(response.status).toBe(415);
  });

  it("answers 404 to a well-formed id of no order", async () => {
    const unknown = randomUUID();
    for (const [name, body] of [
      ["get-order", { orderId: unknown }],
      ["update-order-status", { orderId: unknown, newStatus: "shipped" }],
    ] as const) {
      const response = await asAdmin(name, body);
      expect(response.status, name).toBe(404);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
    }
    expect(await db.orderStatusChange.count({ where: { orderId: unknown } })).toBe(0);
  });

  it("refuses a status change posted from another site", async () => {
    const response = await callFunction(
      "update-order-status",
      { orderId, newStatus: "shipped" },
      { cookie: admin.cookie, headers: { Origin: "https://evil.example" } },
    );
    expect(response.status).toBe(403);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("pending");
  });
});

describe("update-order-status", () => {
  it("refuses to fulfil an unpaid checkout (409) and emails no one", async () => {
    const { orderId } = await orderFor(undefined, undefined, { paid: false });
    const response = await asAdmin("update-order-status", { orderId, newStatus: "shipped" });
    expect(response.status).toBe(409);
    expect(await readJson<{ error: string }>(response)).toEqual({ error: expect.stringMatching(/not been paid/) });
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("pending");
    expect(await historyOf(orderId)).toEqual([]);
    expect(await statusEmailsOf(orderId)).toEqual([]);
  });

  it("records who changed what, and queues exactly one shipped email to the customer", async () => {
    const { orderId, email } = await orderFor();
    const outboxBefore = await db.outboxMessage.count({ where: { orderId } });

    const response = await asAdmin("update-order-status", { orderId, newStatus: "shipped" });
    expect(response.status).toBe(200);
    expect(await readJson<MessageJson>(response)).toEqual({ message: expect.stringContaining("shipped") });

    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("shipped");
    const history = await historyOf(orderId);
    expect(history.map(({ fromStatus, toStatus, changedBy }) => ({ fromStatus, toStatus, changedBy }))).toEqual([
      { fromStatus: "pending", toStatus: "shipped", changedBy: admin.email },
    ]);

    expect(await db.outboxMessage.count({ where: { orderId } })).toBe(outboxBefore + 1);
    const emails = await statusEmailsOf(orderId);
    expect(emails.map(({ kind, to, status }) => ({ kind, to, status }))).toEqual([{ kind: "order-shipped", to: email, status: "pending" }]);
  });

  it("sets shipped_sent only once the email has been handed to the mailer", async () => {
    const { orderId, email } = await orderFor();
    expect((await asAdmin("update-order-status", { orderId, newStatus: "shipped" })).status).toBe(200);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).shippedSent).toBe(false);

    const flagWhileSending: boolean[] = [];
    const sentTo: string[] = [];
    const mailer = {
      send: async (message: { id: string; to: string }) => {
        const row = await db.outboxMessage.findUniqueOrThrow({ where: { id: message.id } });
        if (row.kind !== "order-shipped" || row.orderId !== orderId) return;
        sentTo.push(message.to);
        flagWhileSending.push((await db.order.findUniqueOrThrow({ where: { id: orderId } })).shippedSent);
      },
    };
    // Other tests' emails may be due too: run passes until nothing is left.
    for (let pass = 0; pass < 20; pass++) {
      if ((await processOutbox({ mailer, workerId: "admin-orders-test" })).sent === 0) break;
    }

    expect(sentTo).toEqual([email]);
    expect(flagWhileSending).toEqual([false]);
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.shippedSent).toBe(true);
    expect(order.preparingSent).toBe(false);
    expect(order.deliveredSent).toBe(false);

    const listed = (await ordersJson({ q: orderId })).orders[0];
    expect(listed).toMatchObject({ id: orderId, status: "shipped", shipped_sent: true, chef_notified: true });
  });

  it("setting an order back to pending records the change but queues no email", async () => {
    const { orderId } = await orderFor();
    expect((await asAdmin("update-order-status", { orderId, newStatus: "preparing" })).status).toBe(200);
    const outbox = await db.outboxMessage.count({ where: { orderId } });

    const response = await asAdmin("update-order-status", { orderId, newStatus: "pending" });
    expect(response.status).toBe(200);
    expect(await readJson<MessageJson>(response)).toEqual({ message: expect.stringContaining("pending") });
    expect(await db.outboxMessage.count({ where: { orderId } })).toBe(outbox);
    expect((await statusEmailsOf(orderId)).map((row) => row.kind)).toEqual(["order-preparing"]);
    expect((await historyOf(orderId)).map((row) => [row.fromStatus, row.toStatus])).toEqual([
      ["pending", "preparing"],
      ["preparing", "pending"],
    ]);
  });

  it("the same status twice writes no second history row or email", async () => {
    const { orderId } = await orderFor();
    const first = await asAdmin("update-order-status", { orderId, newStatus: "delivered" });
    expect(first.status).toBe(200);
    const again = await asAdmin("update-order-status", { orderId, newStatus: "delivered" });
    expect(again.status).toBe(200);
    expect(await readJson<MessageJson>(again)).toEqual({ message: expect.stringMatching(/already/) });

    expect(await historyOf(orderId)).toHaveLength(1);
    expect((await statusEmailsOf(orderId)).map((row) => row.kind)).toEqual(["order-delivered"]);

    // A pending order set to pending is "already" too.
    const fresh = await orderFor();
    const same = await asAdmin("update-order-status", { orderId: fresh.orderId, newStatus: "pending" });
    expect(await readJson<MessageJson>(same)).toEqual({ message: expect.stringMatching(/already/) });
    expect(await historyOf(fresh.orderId)).toEqual([]);
  });

  it("two operators setting the same status at once queue one email between them", async () => {
    const { orderId } = await orderFor();
    const second = await signedInAdmin("second");
    const responses = await Promise.all([
      asAdmin("update-order-status", { orderId, newStatus: "preparing" }),
      callFunction("update-order-status", { orderId, newStatus: "preparing" }, { cookie: second.cookie }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(await historyOf(orderId)).toHaveLength(1);
    expect(await statusEmailsOf(orderId)).toHaveLength(1);
  });
});

describe("get-order", () => {
  it("answers the masked order with its history, oldest change first", async () => {
    const { orderId, email } = await orderFor({ lastName: "Zebulonsky", address: "742 Evergreen Terrace" });
    for (const newStatus of ["preparing", "shipped", "delivered"]) {
      expect((await asAdmin("update-order-status", { orderId, newStatus })).status).toBe(200);
    }

    const response = await asAdmin("get-order", { orderId });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const secret of [email, "Zebulonsky", "Evergreen", "310-555-0100"]) expect(text).not.toContain(secret);

    const { order } = JSON.parse(text) as OrderJson;
    expect(order).toMatchObject({
      id: orderId,
      status: "delivered",
      payment_status: "paid",
      customer_email: `${email[0]}***@example.com`,
      shipping_info: { firstName: "J.", lastName: "Z.", city: "Los Angeles", state: "CA" },
    });
    expect(order.history.map(({ from, to, changed_by }) => ({ from, to, changed_by }))).toEqual([
      { from: "pending", to: "preparing", changed_by: admin.email },
      { from: "preparing", to: "shipped", changed_by: admin.email },
      { from: "shipped", to: "delivered", changed_by: admin.email },
    ]);
    const times = order.history.map((change) => Date.parse(change.changed_at));
    expect(times.every((time) => Number.isFinite(time))).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("answers an order with no changes with an empty history", async () => {
    const { orderId } = await orderFor();
    const { order } = await readJson<OrderJson>(await asAdmin("get-order", { orderId }));
    expect(order.history).toEqual([]);
    expect(order.status).toBe("pending");
  });
});

describe("get-dashboard", () => {
  async function dashboard() {
    const response = await asAdmin("get-dashboard", {});
    expect(response.status).toBe(200);
    return readJson<DashboardJson>(response);
  }

  it("answers today's orders and revenue, open orders, and 30 days ending today", async () => {
    const before = await dashboard();
    expect(before.last30Days).toHaveLength(30);
    expect(before.last30Days.at(-1)?.date).toBe(laDay(new Date()));

    const { orderId } = await orderFor();
    await orderFor({}, undefined, { paid: false }); // not counted
    const { totalCents } = await db.order.findUniqueOrThrow({ where: { id: orderId } });

    const after = await dashboard();
    expect(after.today.orders).toBe(before.today.orders + 1);
    expect(after.today.revenue).toBeCloseTo(before.today.revenue + totalCents / 100, 2);
    expect(after.today.revenueCents).toBe(before.today.revenueCents + totalCents);
    expect(after.last30DaysRevenueCents).toBe(before.last30DaysRevenueCents + totalCents);
    expect(after.openOrders).toBe(before.openOrders + 1);
    expect(after.last30Days).toHaveLength(30);
    expect(after.last30Days.at(-1)).toEqual({
      date: laDay(new Date()),
      orders: before.last30Days.at(-1)!.orders + 1,
      revenue: expect.closeTo(before.last30Days.at(-1)!.revenue + totalCents / 100, 2),
      revenueCents: before.last30Days.at(-1)!.revenueCents + totalCents,
    });
    expect(after.last30Days.slice(0, -1)).toEqual(before.last30Days.slice(0, -1));

    // A shipped order is no longer open.
    expect((await asAdmin("update-order-status", { orderId, newStatus: "shipped" })).status).toBe(200);
    expect((await dashboard()).openOrders).toBe(before.openOrders);
  });

  it("counts an order on the Los Angeles day it was placed, when it is paid later", async () => {
    // Placed three days ago (its payment page left open), paid now.
    const threeDaysAgo = new Date(Date.now() - 3 * DAY);
    const placed = await placeOrder();
    await db.order.update({ where: { id: placed.orderId }, data: { createdAt: threeDaysAgo } });
    const before = await dashboardStats();
    await payOrder(placed.sessionId);
    const after = await dashboardStats();
    const bucket = (stats: DashboardJson) => stats.last30Days.find((day) => day.date === laDay(threeDaysAgo))!;
    expect(bucket(after).orders).toBe(bucket(before).orders + 1);
    expect(after.today).toEqual(before.today);

    // Placed 40 days ago: in none of the 30 days.
    const old = await placeOrder();
    await db.order.update({ where: { id: old.orderId }, data: { createdAt: new Date(Date.now() - 40 * DAY) } });
    await payOrder(old.sessionId);
    expect((await dashboardStats()).last30Days).toEqual(after.last30Days);
  });

  /** 30 consecutive calendar days, the last one `now`'s Los Angeles day. */
  function expectThirtyDays(days: DayJson[], now: Date) {
    expect(days).toHaveLength(30);
    expect(days.at(-1)?.date).toBe(laDay(now));
    for (let index = 1; index < days.length; index++) {
      expect(Date.parse(days[index]!.date) - Date.parse(days[index - 1]!.date), `${days[index - 1]!.date} → ${days[index]!.date}`).toBe(DAY);
    }
  }

  it("lists 30 consecutive days on an ordinary day", async () => {
    const now = new Date("2025-06-10T19:30:00Z");
    expectThirtyDays((await dashboardStats(now)).last30Days, now);
  });

  // KNOWN BUG (see report): the days are found by stepping back 24-hour
  // periods, which repeats a day after the autumn clock change and skips one
  // after the spring change. Turn into `it` once fixed.
  it("lists 30 consecutive days late on the day the clocks go back", async () => {
    const now = new Date("2025-11-03T07:30:00Z"); // 23:30 PST on Sunday 2 November
    expectThirtyDays((await dashboardStats(now)).last30Days, now);
  });

  it("lists 30 consecutive days early on the day after the clocks go forward", async () => {
    const now = new Date("2025-03-10T07:30:00Z"); // 00:30 PDT on Monday 10 March
    expectThirtyDays((await dashboardStats(now)).last30Days, now);
  });
});
