import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Preparation } from "~/lib/orders";
import { db } from "~/utils/db.server";
import { callFunction, orderFor, readJson, signedInAdmin, type ErrorJson } from "../utils";

/**
 * The Prepare page's function (issue 23, item 2): the paid orders not yet
 * shipped, by delivery zone and distance from the kitchen, and how many of
 * each product to make; masked for everyone, with who to deliver to for the
 * owner alone, each look recorded in the order's history.
 */

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("prepare-owner");
  staff = await signedInAdmin("prepare-staff", "staff");
});

async function preparation(cookie: string, body: object = {}) {
  const response = await callFunction("get-preparation", body, { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  return readJson<Preparation>(response);
}

const quantities = (prep: Preparation) => Object.fromEntries(prep.to_make.map((line) => [line.product_id, line.quantity]));
const listed = (prep: Preparation) =>
  prep.zones.flatMap((zone) => zone.orders.map((order) => ({ zone: zone.name, id: order.id, miles: order.distance_miles })));

describe("get-preparation", () => {
  it("lists paid orders not yet shipped by zone, nearest first, with the totals to make; shipped, unpaid and refunded orders are not work", async () => {
    const before = await preparation(staff.cookie);
    const surname = `Prep${randomUUID().slice(0, 6)}`;
    // ZIP 00ddd lies ddd tenths of a mile north of the kitchen (the geocoder stand-in): 4.5, 1.2, 15.0 and 23.0 miles.
    const far = await orderFor({ lastName: surname, zipCode: "00045" }, [["bar-banana-pb", 4]]);
    const near = await orderFor({ lastName: surname, zipCode: "00012" }, [
      ["bar-banana-pb", 1],
      ["bites-variety", 3],
    ]);
    const extended = await orderFor({ lastName: surname, zipCode: "00150" }, [["bites-variety", 5]]);
    const premium = await orderFor({ lastName: surname, zipCode: "00230" }, [["bites-strawberry", 10]]);
    const preparing = await orderFor({ lastName: surname, zipCode: "00030" }, [["bar-chocolate-pb", 4]]);
    expect((await callFunction("update-order-status", { orderId: preparing.orderId, newStatus: "preparing" }, { cookie: staff.cookie })).status).toBe(200);
    // Not the day's work: shipped, unpaid, refunded.
    const shipped = await orderFor({ lastName: surname, zipCode: "00020" }, [["bar-chocolate-pb", 7]]);
    expect((await callFunction("update-order-status", { orderId: shipped.orderId, newStatus: "shipped" }, { cookie: staff.cookie })).status).toBe(200);
    await orderFor({ lastName: surname, zipCode: "00020" }, [["bar-chocolate-pb", 9]], { paid: false });
    const refunded = await orderFor({ lastName: surname, zipCode: "00020" }, [["bar-chocolate-pb", 11]]);
    await db.order.update({ where: { id: refunded.orderId }, data: { paymentStatus: "refunded", refundedAt: new Date() } });

    const after = await preparation(staff.cookie);
    expect(after.order_count).toBe(before.order_count + 5);
    expect(after.listed_count).toBe(after.order_count);
    const added = (id: string) => quantities(after)[id]! - (quantities(before)[id] ?? 0);
    expect({
      banana: added("bar-banana-pb"),
      bites: added("bites-variety"),
      strawberry: added("bites-strawberry"),
      chocolate: added("bar-chocolate-pb"),
    }).toEqual({
      banana: 5,
      bites: 8,
      strawberry: 10,
      chocolate: 4,
    });
    // Zones in the owner's order, nearest the kitchen first in each.
    expect(after.zones.map((zone) => zone.name)).toEqual(["standard", "extended", "premium"].filter((name) => after.zones.some((zone) => zone.name === name)));
    for (const zone of after.zones) {
      const miles = zone.orders.map((order) => order.distance_miles);
      expect(miles).toEqual([...miles].sort((a, b) => a - b));
    }
    const mine = listed(after).filter((order) => [far, near, extended, premium, preparing].some((placed) => placed.orderId === order.id));
    expect(mine.map(({ zone, miles }) => [zone, miles])).toEqual([
      ["standard", 1.2],
      ["standard", 3],
      ["standard", 4.5],
      ["extended", 15],
      ["premium", 23],
    ]);
    const order = after.zones.flatMap((zone) => zone.orders).find((each) => each.id === near.orderId)!;
    expect(order).toMatchObject({
      short_id: near.orderId.slice(0, 8),
      status: "pending",
      customer: { initials: `J.${surname[0]}.`, city: "Los Angeles", state: "CA" },
      delivery: null,
      items: [
        { product_id: "bar-banana-pb", name: "Banana Blast", quantity: 1 },
        { product_id: "bites-variety", name: "Chocolate Mini Bites", quantity: 3 },
      ],
    });
    // Masked: nobody's surname or street leaves the server without customerDetails.
    expect(JSON.stringify(after)).not.toContain(surname);
    expect(JSON.stringify(after)).not.toContain("Wilshire");
  });

  it("gives the owner who to deliver to, recorded in each listed order's history; staff are refused and nothing is recorded", async () => {
    const surname = `Slip${randomUUID().slice(0, 6)}`;
    const { orderId } = await orderFor({ lastName: surname, phone: "(310) 555-0142", zipCode: "00030" }, [["bites-banana", 2]]);

    const refused = await callFunction("get-preparation", { customerDetails: true }, { cookie: staff.cookie });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await readJson<ErrorJson>(refused))).not.toContain(surname);
    expect(await db.auditEntry.count({ where: { subjectId: orderId, action: "order.customer-details" } })).toBe(0);

    const full = await preparation(owner.cookie, { customerDetails: true });
    const order = full.zones.flatMap((zone) => zone.orders).find((each) => each.id === orderId)!;
    expect(order.delivery).toMatchObject({ firstName: "Jamie", lastName: surname, phone: "(310) 555-0142", address: "11600 Wilshire Blvd", zipCode: "00030" });
    const records = await db.auditEntry.findMany({ where: { subjectId: orderId, action: "order.customer-details" } });
    expect(records.map((record) => record.actorEmail)).toEqual([owner.email]);
    // Every order listed was recorded, not only this one.
    expect(await db.auditEntry.count({ where: { action: "order.customer-details", actorEmail: owner.email } })).toBe(full.listed_count);
  });

  it("shows the owner no customer's details when their looks cannot be recorded", async () => {
    const surname = `Unrecorded${randomUUID().slice(0, 6)}`;
    const { orderId } = await orderFor({ lastName: surname, zipCode: "00030" }, [["bites-banana", 2]]);
    // The history refuses the looks (a full disk, a lost connection): the details must not go out unrecorded.
    await db.$executeRawUnsafe(`CREATE FUNCTION refuse_looks() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'history unavailable'; END $$`);
    await db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_looks BEFORE INSERT ON "AuditEntry" FOR EACH ROW WHEN (NEW.action = 'order.customer-details') EXECUTE FUNCTION refuse_looks()`,
    );
    try {
      const response = await callFunction("get-preparation", { customerDetails: true }, { cookie: owner.cookie });
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(JSON.stringify(await readJson<ErrorJson>(response))).not.toContain(surname);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_looks ON "AuditEntry"`);
      await db.$executeRawUnsafe(`DROP FUNCTION refuse_looks()`);
    }
    expect(await db.auditEntry.count({ where: { subjectId: orderId, action: "order.customer-details" } })).toBe(0);
    // Staff's masked list never needed the history.
    expect((await callFunction("get-preparation", {}, { cookie: staff.cookie })).status).toBe(200);
  });

  it("with orderIds (the orders selected to print) lists and records only those, totals included", async () => {
    const picked = await orderFor({ zipCode: "00030" }, [["bar-chocolate-pb", 4]]);
    const other = await orderFor({ zipCode: "00031" }, [["bites-banana", 2]]);
    const printed = await preparation(owner.cookie, { customerDetails: true, orderIds: [picked.orderId] });
    expect(printed.zones.flatMap((zone) => zone.orders.map((order) => order.id))).toEqual([picked.orderId]);
    expect(printed.to_make).toEqual([{ product_id: "bar-chocolate-pb", name: "Chocolate Crunch", quantity: 4 }]);
    expect(printed).toMatchObject({ order_count: 1, listed_count: 1 });
    expect(await db.auditEntry.count({ where: { subjectId: picked.orderId, action: "order.customer-details" } })).toBe(1);
    expect(await db.auditEntry.count({ where: { subjectId: other.orderId, action: "order.customer-details" } })).toBe(0);
    expect((await callFunction("get-preparation", { orderIds: ["not-an-id"] }, { cookie: owner.cookie })).status).toBe(400);
  });

  it("is for signed-in operators, with a strict body", async () => {
    expect((await callFunction("get-preparation", {})).status).toBe(401);
    expect((await callFunction("get-preparation", { customerDetails: "yes" }, { cookie: owner.cookie })).status).toBe(400);
    expect((await callFunction("get-preparation", { extra: 1 }, { cookie: owner.cookie })).status).toBe(400);
  });
});
