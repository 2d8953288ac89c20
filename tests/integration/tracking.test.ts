import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { auditTrail } from "~/models/audit.server";
import { db } from "~/utils/db.server";
import type { MaskedOrderWithHistory } from "~/lib/orders";
import { callFunction, orderFor, readJson, signedInAdmin, type ErrorJson } from "../utils";

/**
 * update-order-status with tracking (decision 027): "shipped" may carry the
 * carrier and tracking number; they are stored on the order, shown to the
 * operator, and the customer's "on its way" email gives them with the
 * carrier's tracking link and the link to their order page.
 */

let staff: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  // Moving an order along (tracking included) is staff work.
  staff = await signedInAdmin("staff", "staff");
});
afterEach(() => {
  vi.restoreAllMocks();
});

function ship(body: Record<string, unknown>) {
  return callFunction("update-order-status", body, { cookie: staff.cookie });
}

const shippedEmails = (orderId: string) => db.outboxMessage.findMany({ where: { orderId, kind: "order-shipped" } });

describe("bad tracking is refused with 400, and nothing changes", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "a tracking number with another status",
      { newStatus: "preparing", trackingNumber: "9400100000000000000000", carrier: "USPS" },
      /^trackingNumber: is only given with newStatus "shipped"/,
    ],
    ["a carrier with another status", { newStatus: "delivered", carrier: "UPS" }, /^carrier: is only given with newStatus "shipped"/],
    [
      "an unknown carrier",
      { newStatus: "shipped", carrier: "Pony Express", trackingNumber: "ABC123456" },
      /^carrier: must be one of USPS, UPS, FedEx, DHL, Local courier/,
    ],
    ["a tracking number without its carrier", { newStatus: "shipped", trackingNumber: "1Z999AA10123456784" }, /^carrier: is required with a tracking number/],
    ["a tracking number of five characters", { newStatus: "shipped", carrier: "UPS", trackingNumber: "1Z999" }, /^trackingNumber: must be 6 to 40 characters/],
    [
      "a tracking number of 41 characters",
      { newStatus: "shipped", carrier: "UPS", trackingNumber: "1".repeat(41) },
      /^trackingNumber: must be 6 to 40 characters/,
    ],
    [
      "a tracking number with markup",
      { newStatus: "shipped", carrier: "UPS", trackingNumber: "1Z<b>99</b>" },
      /^trackingNumber: may only hold letters, digits and dashes/,
    ],
    ["a tracking number that is not text", { newStatus: "shipped", carrier: "UPS", trackingNumber: 123456789 }, /^trackingNumber: must be a string/],
    ["a carrier over 200 characters", { newStatus: "shipped", carrier: "U".repeat(201) }, /^carrier: is too long/],
  ];

  it.each(cases)("%s", async (_name, body, error) => {
    const { orderId } = await orderFor();
    const response = await ship({ orderId, ...body });
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toMatch(error);
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect({ status: order.status, carrier: order.carrier, trackingNumber: order.trackingNumber }).toEqual({
      status: "pending",
      carrier: null,
      trackingNumber: null,
    });
    expect(await db.orderStatusChange.count({ where: { orderId } })).toBe(0);
    expect(await shippedEmails(orderId)).toEqual([]);
  });
});

describe("shipping with tracking", () => {
  it("stores the number as the carrier prints it (spaces out, upper case); the email gives it with USPS's tracking link and the order page", async () => {
    const { orderId, email } = await orderFor();
    const response = await ship({ orderId, newStatus: "shipped", carrier: "USPS", trackingNumber: "  9400 1000 0000 0000 0000 0a " });
    expect(response.status).toBe(200);
    expect(await readJson<{ message: string }>(response)).toEqual({ message: `Order ${orderId.slice(0, 8)} is now shipped.` });

    expect(await db.order.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({
      status: "shipped",
      carrier: "USPS",
      trackingNumber: "940010000000000000000A",
    });
    const emails = await shippedEmails(orderId);
    expect(emails).toHaveLength(1);
    const [shipped] = emails;
    expect(shipped!.to).toBe(email);
    expect(shipped!.subject).toMatch(/is on its way$/);
    const link = "https://tools.usps.com/go/TrackConfirmAction?tLabels=940010000000000000000A";
    expect(shipped!.text).toContain("Carrier: USPS\nTracking number: 940010000000000000000A\nTrack it: " + link);
    expect(shipped!.html).toContain(`<a href="${link}"`);
    expect(shipped!.html).toContain("Track your parcel with USPS");
    expect(shipped!.text).toMatch(new RegExp(`Follow your order: http://shop\\.test/orders/${orderId}\\?token=[\\w-]{43}`));

    const { order } = await readJson<{ order: MaskedOrderWithHistory }>(await callFunction("get-order", { orderId }, { cookie: staff.cookie }));
    expect(order.tracking).toEqual({ carrier: "USPS", number: "940010000000000000000A", url: link });
    const list = await readJson<{ orders: MaskedOrderWithHistory[] }>(await callFunction("get-orders", { q: orderId.slice(0, 8) }, { cookie: staff.cookie }));
    expect(list.orders.find((listed) => listed.id === orderId)?.tracking).toEqual(order.tracking);
  });

  it.each([
    ["UPS", "1Z999AA10123456784", "https://www.ups.com/track?tracknum=1Z999AA10123456784"],
    ["FedEx", "771234567890", "https://www.fedex.com/fedextrack/?trknbr=771234567890"],
    ["DHL", "1234567890", "https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=1234567890"],
  ])("links %s's own tracking page", async (carrier, trackingNumber, link) => {
    const { orderId } = await orderFor();
    expect((await ship({ orderId, newStatus: "shipped", carrier, trackingNumber })).status).toBe(200);
    const [shipped] = await shippedEmails(orderId);
    expect(shipped!.text).toContain(`Track it: ${link}`);
    expect(shipped!.html).toContain(`href="${link.replace("&", "&amp;")}"`);
  });

  it("a local courier needs no number, and its email has no tracking link", async () => {
    const { orderId } = await orderFor();
    expect((await ship({ orderId, newStatus: "shipped", carrier: "Local courier", trackingNumber: "" })).status).toBe(200);
    expect(await db.order.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({ carrier: "Local courier", trackingNumber: null });
    const [shipped] = await shippedEmails(orderId);
    expect(shipped!.text).toContain("Carrier: Local courier\n");
    expect(shipped!.text).not.toContain("Track it:");
  });

  it("shipping without tracking still works as before: the email has no tracking lines", async () => {
    const { orderId } = await orderFor();
    expect((await ship({ orderId, newStatus: "shipped" })).status).toBe(200);
    const [shipped] = await shippedEmails(orderId);
    expect(shipped!.text).not.toContain("Carrier:");
  });

  it("a shipped order's tracking can be corrected, without a second email", async () => {
    const { orderId } = await orderFor();
    await ship({ orderId, newStatus: "shipped", carrier: "UPS", trackingNumber: "1Z999AA10123456700" });
    const response = await ship({ orderId, newStatus: "shipped", carrier: "UPS", trackingNumber: "1Z999AA10123456784" });
    expect(await readJson<{ message: string }>(response)).toEqual({ message: `Tracking for order ${orderId.slice(0, 8)} updated.` });
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).trackingNumber).toBe("1Z999AA10123456784");
    expect(await shippedEmails(orderId)).toHaveLength(1);
    expect(await db.orderStatusChange.count({ where: { orderId } })).toBe(1);
  });
});

describe("tracking changes are audited", () => {
  const trackingTrail = async (orderId: string) => (await auditTrail("order", orderId)).filter((entry) => entry.action === "order.tracking");

  it("records who set the tracking when the order shipped, and who corrected it, with before and after", async () => {
    const owner = await signedInAdmin("owner", "owner");
    const { orderId } = await orderFor();
    expect((await ship({ orderId, newStatus: "shipped", carrier: "UPS", trackingNumber: "1Z999AA10123456700" })).status).toBe(200);
    const corrected = await callFunction(
      "update-order-status",
      { orderId, newStatus: "shipped", carrier: "FedEx", trackingNumber: "771234567890" },
      { cookie: owner.cookie },
    );
    expect(corrected.status).toBe(200);

    expect(await trackingTrail(orderId)).toEqual([
      {
        actorEmail: owner.email,
        action: "order.tracking",
        at: expect.any(String),
        before: { carrier: "UPS", trackingNumber: "1Z999AA10123456700" },
        after: { carrier: "FedEx", trackingNumber: "771234567890" },
      },
      {
        actorEmail: staff.email,
        action: "order.tracking",
        at: expect.any(String),
        before: { carrier: null, trackingNumber: null },
        after: { carrier: "UPS", trackingNumber: "1Z999AA10123456700" },
      },
    ]);

    // The operator's order page lists both, oldest first, beside the status changes.
    const { order } = await readJson<{ order: MaskedOrderWithHistory }>(await callFunction("get-order", { orderId }, { cookie: staff.cookie }));
    expect(order.history).toEqual([{ from: "pending", to: "shipped", changed_by: staff.email, changed_at: expect.any(String) }]);
    expect(order.tracking_history).toEqual([
      { from: { carrier: null, number: null }, to: { carrier: "UPS", number: "1Z999AA10123456700" }, changed_by: staff.email, changed_at: expect.any(String) },
      {
        from: { carrier: "UPS", number: "1Z999AA10123456700" },
        to: { carrier: "FedEx", number: "771234567890" },
        changed_by: owner.email,
        changed_at: expect.any(String),
      },
    ]);
  });

  it("records nothing when the tracking given is the one stored, or when an order ships without tracking", async () => {
    const { orderId } = await orderFor();
    await ship({ orderId, newStatus: "shipped", carrier: "USPS", trackingNumber: "9400100000000000000000" });
    const again = await ship({ orderId, newStatus: "shipped", carrier: "USPS", trackingNumber: "9400 1000 0000 0000 0000 00" });
    expect(await readJson<{ message: string }>(again)).toEqual({ message: `Order ${orderId.slice(0, 8)} is already shipped.` });
    expect(await trackingTrail(orderId)).toHaveLength(1);

    const untracked = await orderFor();
    await ship({ orderId: untracked.orderId, newStatus: "shipped" });
    expect(await trackingTrail(untracked.orderId)).toEqual([]);
    const { order } = await readJson<{ order: MaskedOrderWithHistory }>(
      await callFunction("get-order", { orderId: untracked.orderId }, { cookie: staff.cookie }),
    );
    expect(order.tracking_history).toEqual([]);
  });

  it("a refused change records nothing", async () => {
    const { orderId } = await orderFor({}, [["bites-variety", 3]], { paid: false });
    expect((await ship({ orderId, newStatus: "shipped", carrier: "UPS", trackingNumber: "1Z999AA10123456700" })).status).toBe(409);
    expect(await trackingTrail(orderId)).toEqual([]);
  });
});
