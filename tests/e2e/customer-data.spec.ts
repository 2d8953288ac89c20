import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { newEmail, payOrderFor } from "./checkout-helpers";

/**
 * A customer's data request (issue 23, item 6), as the owner answers it in the
 * admin: export everything the shop holds about them, then forget them once
 * their order is delivered; what remains is the sale, with no one's name on it.
 */

test("the owner exports a customer's data, then forgets them: their order keeps its total and loses their name", async ({ adminPage }) => {
  const email = newEmail("forget-me");
  await payOrderFor(adminPage.request, email);
  expect((await adminPage.request.post("/functions/v1/send-welcome-email", { data: { email } })).ok()).toBe(true);
  // Find the order's id (the owner's search by whole email) and deliver it.
  const found = await adminPage.request.post("/functions/v1/get-orders", { data: { q: email } });
  const { orders } = (await found.json()) as { orders: { id: string; total_cents: number }[] };
  expect(orders).toHaveLength(1);
  const order = orders[0]!;

  await adminPage.goto("/admin/customers");
  await expect(adminPage.getByRole("heading", { name: "Customer data" })).toBeVisible();
  await adminPage.getByLabel("Customer's email").fill(email.toUpperCase());
  const download = adminPage.waitForEvent("download");
  await adminPage.getByRole("button", { name: "Export their data (JSON)" }).click();
  const file = JSON.parse(readFileSync(await (await download).path(), "utf8")) as {
    orders: { id: string; first_name: string }[];
    subscriptions: unknown[];
    emails: unknown[];
  };
  expect(file.orders.map((each) => each.id)).toEqual([order.id]);
  expect(file.orders[0]!.first_name).toBe("Maya");
  expect(file.subscriptions).toHaveLength(1);
  await expect(adminPage.getByRole("status").filter({ hasText: "Downloaded: 1 order(s), 1 subscription(s)" })).toBeVisible();

  // Not while the order is still to be delivered.
  await adminPage.getByRole("button", { name: "Forget this customer…" }).click();
  await adminPage.getByRole("dialog", { name: "Forget this customer?" }).getByRole("button", { name: "Forget" }).click();
  await expect(adminPage.getByRole("alert").filter({ hasText: "still has orders to pay or deliver" })).toContainText(order.id.slice(0, 8));

  expect((await adminPage.request.post("/functions/v1/update-order-status", { data: { orderId: order.id, newStatus: "delivered" } })).ok()).toBe(true);
  await adminPage.getByRole("button", { name: "Forget this customer…" }).click();
  await adminPage.getByRole("dialog", { name: "Forget this customer?" }).getByRole("button", { name: "Forget" }).click();
  const done = adminPage.getByRole("status").filter({ hasText: "Forgotten" });
  await expect(done).toContainText("1 order(s): name, street, phone and email erased");
  await expect(done).toContainText("1 newsletter subscription(s) deleted");
  await adminPage.setViewportSize({ width: 1440, height: 900 });
  await adminPage.screenshot({ path: "test-results/screenshots/admin-customer-data-desktop.png", fullPage: true });
  await adminPage.setViewportSize({ width: 390, height: 844 });
  await expect(done).toBeVisible();
  await adminPage.screenshot({ path: "test-results/screenshots/admin-customer-data-phone.png", fullPage: true });

  // What remains: the sale, its total, its items and its city; no name.
  await adminPage.goto(`/admin/orders/${order.id}`);
  await expect(adminPage.getByRole("heading", { name: `Order ${order.id.slice(0, 8)}` })).toBeVisible();
  await expect(adminPage.getByText("F. C.").first()).toBeVisible();
  await expect(adminPage.getByText("Maya")).toHaveCount(0);
  const again = await adminPage.request.post("/functions/v1/export-customer", { data: { email } });
  expect(await again.json()).toMatchObject({ orders: [], subscriptions: [], inquiries: [], emails: [] });
});

test("staff do not see Customer data, and are told it is the owner's", async ({ staffPage }) => {
  await staffPage.goto("/admin/customers");
  await expect(staffPage.getByRole("alert").filter({ hasText: "Only the shop's owner can do this." })).toBeVisible();
  await expect(staffPage.getByRole("link", { name: "Customer data" })).toHaveCount(0);
});
