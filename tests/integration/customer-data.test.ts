import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { FORGOTTEN_DOMAIN, customerReference, sweepRetention, type CustomerExport } from "~/models/customer-data.server";
import { geocoderCacheKey } from "~/services/geocoder.server";
import { db } from "~/utils/db.server";
import { callFunction, orderFor, readJson, signedInAdmin, type ErrorJson } from "../utils";

/**
 * Customers' data rights (issue 23, item 6; decision 062): the owner exports
 * everything the shop holds about a mailbox and erases it on request, keeping
 * what the books need; a daily sweep erases what is no longer needed.
 */

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("data-owner");
  staff = await signedInAdmin("data-staff", "staff");
});

/** A customer with two orders (one spelled another way), the newsletter, an inquiry, and emails. */
async function customer() {
  const local = `ana.lopez.${randomUUID().slice(0, 6)}`;
  const email = `${local}@gmail.com`;
  const street = { address: `${Math.floor(Math.random() * 9000) + 1000} Ocean Park Blvd`, city: "Santa Monica", zipCode: "90405" };
  const first = await orderFor({ email, firstName: "Ana", lastName: "Lopez", phone: "(310) 555-0199", ...street });
  const second = await orderFor({ email: `${local.replaceAll(".", "").toUpperCase()}+treats@GoogleMail.com`, firstName: "Ana", lastName: "Lopez", ...street });
  expect((await callFunction("send-welcome-email", { email })).status).toBe(200);
  expect((await callFunction("send-partnership-inquiry", { name: "Ana Lopez", email, business: "Ana's Gym", message: "Forty bars a week?" })).status).toBe(200);
  // Something the shop holds about someone else, which must stay.
  const other = await orderFor({ email: `someone.else.${randomUUID().slice(0, 6)}@gmail.com` });
  return { email, street, orders: [first.orderId, second.orderId], other: other.orderId };
}

describe("export-customer", () => {
  it("gives the owner everything held about a mailbox, in any spelling, and records the request without the address", async () => {
    const ana = await customer();
    const response = await callFunction("export-customer", { email: ana.email.toUpperCase() }, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const data = await readJson<CustomerExport>(response);
    expect(data.orders.map((order) => order.id).sort()).toEqual([...ana.orders].sort());
    expect(data.orders[0]).toMatchObject({ first_name: "Ana", last_name: "Lopez", address: ana.street.address, city: "Santa Monica", total_cents: 4000 });
    expect(data.subscriptions).toEqual([
      { email: ana.email, subscribed_at: expect.any(String), unsubscribed_at: null, consent: { source: "form", given_at: expect.any(String), note: null } },
    ]);
    expect(data.inquiries).toEqual([expect.objectContaining({ name: "Ana Lopez", business: "Ana's Gym", message: "Forty bars a week?" })]);
    // The order confirmations, the kitchen's copies (about her orders), the welcome and the team's copy of her inquiry.
    expect(new Set(data.emails.map((email) => email.kind))).toEqual(
      new Set(["order-confirmation", "order-fulfilment", "newsletter-welcome", "partnership-inquiry"]),
    );
    expect(data.emails.some((email) => email.text.includes("Ana"))).toBe(true);
    expect(JSON.stringify(data)).not.toContain(ana.other);

    const records = await db.auditEntry.findMany({ where: { action: "customer.export", actorEmail: owner.email } });
    expect(records.at(-1)?.subjectId).toBe(customerReference(data.email));
    expect(JSON.stringify(records)).not.toContain("lopez");
  });

  it("is the owner's: staff are refused, a bad email is a 400", async () => {
    expect((await callFunction("export-customer", { email: "ana@example.com" }, { cookie: staff.cookie })).status).toBe(403);
    expect((await callFunction("export-customer", { email: "ana@example.com" })).status).toBe(401);
    expect((await callFunction("export-customer", { email: "not an email" }, { cookie: owner.cookie })).status).toBe(400);
    expect((await callFunction("forget-customer", { email: "ana@example.com" }, { cookie: staff.cookie })).status).toBe(403);
  });
});

describe("forget-customer", () => {
  it("waits for open orders, then erases the personal data everywhere, keeps the books, and says what it changed", async () => {
    const ana = await customer();
    await db.geocodeResult.upsert({
      where: { query: geocoderCacheKey({ ...ana.street, state: "CA" }) },
      create: { query: geocoderCacheKey({ ...ana.street, state: "CA" }), lat: 34, lon: -118 },
      update: {},
    });

    const refused = await callFunction("forget-customer", { email: ana.email }, { cookie: owner.cookie });
    expect(refused.status).toBe(409);
    expect((await readJson<ErrorJson>(refused)).error).toContain(ana.orders[0]!.slice(0, 8));
    expect(await db.order.count({ where: { id: { in: ana.orders }, lastName: "Lopez" } })).toBe(2);

    await db.order.updateMany({ where: { id: { in: ana.orders } }, data: { status: "delivered" } });
    const response = await callFunction("forget-customer", { email: ana.email }, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const { changed } = await readJson<{ changed: Record<string, number> }>(response);
    expect(changed).toMatchObject({ orders: 2, subscriptions: 1, inquiries: 1, geocoderEntries: 1 });
    // Two confirmations, two kitchen copies, the welcome, the inquiry's copy.
    expect(changed.emails).toBe(6);

    const orders = await db.order.findMany({ where: { id: { in: ana.orders } } });
    for (const order of orders) {
      expect(order).toMatchObject({ firstName: "Forgotten", lastName: "Customer", phone: null, address: "", firstOrderClaim: null });
      expect(order.email.endsWith(`@${FORGOTTEN_DOMAIN}`)).toBe(true);
      // The books keep the sale: amounts, and where it was delivered (sales tax).
      expect(order).toMatchObject({ totalCents: 4000, paymentStatus: "paid", city: "Santa Monica", state: "CA", zipCode: "90405" });
    }
    const emails = await db.outboxMessage.findMany({ where: { orderId: { in: ana.orders } } });
    expect(emails.every((email) => email.text === "" && email.html === "" && !email.to.includes("lopez"))).toBe(true);
    expect(await db.subscriber.count({ where: { email: ana.email } })).toBe(0);
    expect(await db.partnershipInquiry.count({ where: { email: ana.email } })).toBe(0);
    // Someone else's order is untouched.
    expect((await db.order.findUniqueOrThrow({ where: { id: ana.other } })).firstName).toBe("Jamie");

    const after = await readJson<CustomerExport>(await callFunction("export-customer", { email: ana.email }, { cookie: owner.cookie }));
    expect(after).toMatchObject({ orders: [], subscriptions: [], inquiries: [], emails: [] });
    const record = await db.auditEntry.findFirstOrThrow({ where: { action: "customer.forget", subjectId: customerReference(after.email) } });
    expect(JSON.parse(record.after!)).toEqual(changed);
  });
});

describe("the retention sweep", () => {
  it("erases abandoned checkouts, old email bodies and old geocoder answers, and nothing newer", async () => {
    const abandoned = await orderFor({ lastName: "Abandoned" }, undefined, { paid: false });
    const recentAbandoned = await orderFor({ lastName: "Recent" }, undefined, { paid: false });
    await db.order.updateMany({ where: { id: { in: [abandoned.orderId, recentAbandoned.orderId] } }, data: { paymentStatus: "expired" } });
    await db.$executeRaw`UPDATE "Order" SET "updatedAt" = now() - interval '31 days' WHERE "id" = ${abandoned.orderId}`;
    const paid = await orderFor({ lastName: "Paid" });
    await db.$executeRaw`UPDATE "Order" SET "updatedAt" = now() - interval '400 days' WHERE "id" = ${paid.orderId}`;
    const [oldEmail, newEmail] = await db.outboxMessage.findMany({ where: { orderId: paid.orderId }, take: 2 });
    await db.outboxMessage.update({ where: { id: oldEmail!.id }, data: { status: "sent", sentAt: new Date(Date.now() - 91 * 24 * 3600_000) } });
    await db.outboxMessage.update({ where: { id: newEmail!.id }, data: { status: "sent", sentAt: new Date(Date.now() - 89 * 24 * 3600_000) } });
    const oldKey = `retention old ${randomUUID()}`;
    const newKey = `retention new ${randomUUID()}`;
    await db.geocodeResult.create({ data: { query: oldKey, lat: 34, lon: -118, createdAt: new Date(Date.now() - 91 * 24 * 3600_000) } });
    await db.geocodeResult.create({ data: { query: newKey, lat: 34, lon: -118 } });

    const result = await sweepRetention();
    expect(result.abandonedCheckouts).toBeGreaterThanOrEqual(1);

    expect(await db.order.findUniqueOrThrow({ where: { id: abandoned.orderId } })).toMatchObject({ lastName: "Customer", address: "", totalCents: 4000 });
    expect((await db.order.findUniqueOrThrow({ where: { id: recentAbandoned.orderId } })).lastName).toBe("Recent");
    // A paid order is the books': never swept.
    expect((await db.order.findUniqueOrThrow({ where: { id: paid.orderId } })).lastName).toBe("Paid");
    expect(await db.outboxMessage.findUniqueOrThrow({ where: { id: oldEmail!.id } })).toMatchObject({ text: "", html: "" });
    expect((await db.outboxMessage.findUniqueOrThrow({ where: { id: newEmail!.id } })).text).not.toBe("");
    expect(await db.geocodeResult.count({ where: { query: oldKey } })).toBe(0);
    expect(await db.geocodeResult.count({ where: { query: newKey } })).toBe(1);
  });
});
