import type { Page } from "@playwright/test";
import { westLa } from "./checkout-helpers";
import { demoAdmin, expect, test } from "./fixtures";
import { STRIPE_SLOW_REFUND_TAG } from "../../mocks/test-scenarios";
import { emailTo, orderPageLink, paidOrder, uniqueEmail } from "./order-helpers";

/**
 * Tracking, refunds and the customer's order page (decision 023), as people use
 * them: the owner ships with a tracking number and the customer follows the
 * link in their confirmation email; the owner refunds an order; staff never
 * see the Refund button. Emails are read back from the .eml files the e2e
 * server's mailer writes (no SMTP_URL), as the customer would receive them.
 */

// Each flow pays an order, waits for the outbox worker's emails and takes pictures at two widths.
test.slow();

const viewports = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
];

async function screenshots(page: Page, name: string) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} is wider than the screen at ${viewport.width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screenshots/${name}-${viewport.name}.png`, fullPage: true });
  }
}

test("the owner ships with a tracking number, and the customer's order page from the confirmation email shows it", async ({ adminPage, browser }) => {
  const email = uniqueEmail("tracking");
  const { orderId, shortId } = await paidOrder(adminPage.request, email);
  const link = orderPageLink(await emailTo(email, /is confirmed$/));

  await adminPage.goto(`/admin/orders/${orderId}`);
  await expect(adminPage.getByRole("heading", { name: `Order ${shortId}` })).toBeVisible();
  // The owner can tell a customer until when their order link works (decision 048).
  await expect(adminPage.getByText(/The customer's order page link works until [A-Z][a-z]{2} \d{1,2}, \d{4}/)).toBeVisible();
  await adminPage.getByLabel("Change status").selectOption("shipped");
  const dialog = adminPage.getByRole("dialog", { name: `Ship order ${shortId}` });
  await dialog.getByLabel("Tracking number").fill("1z999 aa1 0123 456");
  await dialog.getByRole("button", { name: "Mark as shipped" }).click();
  // A number needs its carrier: said beside the carrier, and nothing is sent until it is chosen.
  await expect(dialog.getByLabel("Carrier")).toHaveAccessibleDescription(/Carrier is required with a tracking number\./);
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Carrier").selectOption("UPS");
  await expect(dialog.getByLabel("Carrier")).not.toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(dialog.getByText("Tracking number must be 6 to 40 characters.")).toHaveCount(0);
  await expect(adminPage.getByText(`Order ${shortId} is now shipped.`)).toBeVisible();
  await expect(adminPage.getByTestId("tracking")).toContainText("UPS · 1Z999AA10123456");
  // The history says who set the tracking, beside the status change.
  const history = adminPage.getByRole("listitem").filter({ hasText: "Tracking set" });
  await expect(history).toContainText("UPS · 1Z999AA10123456");
  await expect(history).toContainText(`${demoAdmin.email}, `);
  await screenshots(adminPage, "admin-order-shipped");

  // The customer: another browser, no admin session, straight from the email.
  const customer = await (await browser.newContext()).newPage();
  const response = await customer.goto(link);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  await expect(customer.getByRole("heading", { level: 1, name: "Your treats are on their way" })).toBeVisible();
  await expect(customer.getByText(`Order ${shortId}`, { exact: true })).toBeVisible();
  await expect(customer.getByText("Los Angeles, CA")).toBeVisible();
  await expect(customer.getByText("1Z999AA10123456", { exact: true })).toBeVisible();
  await expect(customer.getByRole("link", { name: "Track with UPS" })).toHaveAttribute("href", "https://www.ups.com/track?tracknum=1Z999AA10123456");
  await expect(customer.locator('[aria-current="step"]')).toContainText("Shipped");
  await expect(customer.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  const html = await customer.content();
  for (const secret of [email, westLa.firstName, westLa.lastName, westLa.address]) expect(html, secret).not.toContain(secret);
  await screenshots(customer, "order-page-shipped");

  // The "on its way" email carries the tracking link and the same page.
  const shipped = await emailTo(email, /is on its way$/);
  expect(shipped).toContain("Track it: https://www.ups.com/track?tracknum=1Z999AA10123456");
  expect(orderPageLink(shipped)).toBe(link);

  // A wrong token is the shop's 404, like an unknown order.
  const wrong = await customer.goto(link.replace(/token=.*/, "token=not-the-token"));
  expect(wrong?.status()).toBe(404);
  await expect(customer.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();

  // A corrected number is in the history too, with the number it replaced.
  const corrected = await adminPage.request.post("/functions/v1/update-order-status", {
    data: { orderId, newStatus: "shipped", carrier: "UPS", trackingNumber: "1Z999AA10123456784" },
  });
  expect(await corrected.json()).toEqual({ message: `Tracking for order ${shortId} updated.` });
  await adminPage.reload();
  const correction = adminPage.getByRole("listitem").filter({ hasText: "Tracking corrected" });
  await expect(correction).toContainText("UPS · 1Z999AA10123456 → UPS · 1Z999AA10123456784");
  await expect(correction).toContainText(`${demoAdmin.email}, `);
  await expect(adminPage.getByTestId("tracking")).toContainText("UPS · 1Z999AA10123456784");
  await screenshots(adminPage, "admin-order-tracking-corrected");
});

test("the owner refunds an order: a confirm dialog asks the reason, then the payment shows Refunded", async ({ adminPage }) => {
  const email = uniqueEmail("refund");
  const { orderId, shortId } = await paidOrder(adminPage.request, email);

  await adminPage.goto(`/admin/orders/${orderId}`);
  await expect(adminPage.getByTestId("payment-badge")).toHaveText("Paid");
  await adminPage.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = adminPage.getByRole("dialog", { name: `Refund order ${shortId}` });
  await expect(dialog).toContainText("$40.00");
  await dialog.getByRole("button", { name: "Refund $40.00" }).click();
  // The message beside the field it is about, and named by it.
  await expect(dialog.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Reason")).toHaveAccessibleDescription(/Give a reason of 3 to 500 characters\./);
  await screenshots(adminPage, "admin-refund-dialog");
  await dialog.getByLabel("Reason").fill("Box arrived thawed");
  await dialog.getByRole("button", { name: "Refund $40.00" }).click();

  await expect(adminPage.getByText(`Order ${shortId} is refunded: $40.00 goes back to the customer's card.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(adminPage.getByTestId("payment-badge")).toHaveText("Refunded");
  await expect(adminPage.getByText("Box arrived thawed", { exact: false })).toBeVisible();
  await expect(adminPage.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await expect(adminPage.getByLabel("Change status")).toBeDisabled();
  await screenshots(adminPage, "admin-order-refunded");

  // The customer is told, and their page says so.
  const refunded = await emailTo(email, /has been refunded$/);
  expect(refunded).toContain(`We've refunded $40.00 for order ${shortId}`);
  await adminPage.goto(orderPageLink(refunded));
  await expect(adminPage.getByRole("heading", { level: 1, name: "This order was refunded" })).toBeVisible();
  await screenshots(adminPage, "order-page-refunded");
});

test("the owner cancels an order before it ships: refunded, and the customer is told once and sees it on their page", async ({ adminPage }) => {
  const email = uniqueEmail("cancel");
  const { orderId, shortId } = await paidOrder(adminPage.request, email);

  await adminPage.goto(`/admin/orders/${orderId}`);
  await adminPage.getByRole("button", { name: "Cancel order" }).click();
  const dialog = adminPage.getByRole("dialog", { name: `Cancel order ${shortId}` });
  await expect(dialog).toContainText("gets all of $40.00 back on their card and one email");
  await dialog.getByLabel("Reason").fill("Kitchen freezer failed");
  await dialog.getByRole("button", { name: "Cancel the order" }).click();
  await expect(adminPage.getByText(`Order ${shortId} is cancelled and refunded; the customer has been emailed.`)).toBeVisible();
  await expect(adminPage.getByTestId("status-badge").first()).toHaveText("cancelled");
  await expect(adminPage.getByTestId("payment-badge")).toHaveText("Refunded");
  await expect(adminPage.getByLabel("Change status")).toBeDisabled();
  await expect(adminPage.getByRole("button", { name: "Cancel order" })).toHaveCount(0);
  await screenshots(adminPage, "admin-order-cancelled");

  // One email, saying both; the customer's page from it says the order was cancelled.
  const told = await emailTo(email, /was cancelled and refunded$/);
  expect(told).toContain(`We cancelled order ${shortId} before it shipped and refunded $40.00`);
  await adminPage.goto(orderPageLink(told));
  await expect(adminPage.getByRole("heading", { level: 1, name: "Your order was cancelled" })).toBeVisible();
  await expect(adminPage.getByRole("listitem").filter({ hasText: "Cancelled" }).first()).toBeVisible();
  await screenshots(adminPage, "order-page-cancelled");
});

test("a cancelled and refunded order is found by its number in the Orders list as it first opens, and its payment filters find it too", async ({
  adminPage,
}) => {
  const { orderId, shortId } = await paidOrder(adminPage.request, uniqueEmail("found"));
  await adminPage.goto(`/admin/orders/${orderId}`);
  await adminPage.getByRole("button", { name: "Cancel order" }).click();
  const dialog = adminPage.getByRole("dialog", { name: `Cancel order ${shortId}` });
  await dialog.getByLabel("Reason").fill("Asked to cancel");
  await dialog.getByRole("button", { name: "Cancel the order" }).click();
  await expect(adminPage.getByText(`Order ${shortId} is cancelled and refunded; the customer has been emailed.`)).toBeVisible();

  // The customer phones with the number: the list as it opens (All orders) finds it.
  await adminPage.goto("/admin/");
  await expect(adminPage.getByRole("textbox", { name: "Payment" })).toHaveValue("All orders");
  await adminPage.getByLabel("Search").fill(shortId);
  await expect(adminPage.getByTestId("order-count")).toHaveText("1 order");
  const row = adminPage.getByRole("row").filter({ hasText: shortId });
  await expect(row.getByTestId("payment-badge")).toHaveText("Refunded");
  await expect(row.getByTestId("status-badge")).toHaveText("cancelled");
  // Its emails in words: the kitchen was told; the customer's status emails were not needed.
  await expect(row.getByTestId("email-flag")).toHaveText(["✓ Kitchen", "Preparing", "Shipped", "Delivered"]);
  await expect(row.getByTestId("email-flag").first()).toHaveAccessibleName("Kitchen: the fulfilment team's email sent");

  // Narrowed to what happened to its money: among the refunded, not among the paid.
  await adminPage.getByRole("textbox", { name: "Payment" }).click();
  await expect(adminPage.getByRole("listbox", { name: "Payment" }).getByRole("option")).toHaveText([
    "All orders",
    "Paid",
    "Part refunded",
    "Refunded",
    "Given up (unpaid)",
  ]);
  await adminPage.getByRole("listbox", { name: "Payment" }).getByRole("option", { name: "Refunded", exact: true }).click();
  await expect(adminPage.getByTestId("order-count")).toHaveText("1 order");
  await screenshots(adminPage, "admin-orders-payment-filter");
  await adminPage.getByRole("textbox", { name: "Payment" }).click();
  await adminPage.getByRole("listbox", { name: "Payment" }).getByRole("option", { name: "Paid", exact: true }).click();
  await expect(adminPage.getByTestId("order-count")).toHaveText("0 orders");
});

test("staff are not offered the checkouts given up", async ({ staffPage }) => {
  await staffPage.goto("/admin/");
  await staffPage.getByRole("textbox", { name: "Payment" }).click();
  await expect(staffPage.getByRole("listbox", { name: "Payment" }).getByRole("option")).toHaveText(["All orders", "Paid", "Part refunded", "Refunded"]);
});

test("the owner refunds one carton, then cancels the rest: the customer is told each time and sees both refunds on their page", async ({ adminPage }) => {
  const email = uniqueEmail("part-refund");
  const { orderId, shortId } = await paidOrder(adminPage.request, email);

  await adminPage.goto(`/admin/orders/${orderId}`);
  await adminPage.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = adminPage.getByRole("dialog", { name: `Refund order ${shortId}` });
  await dialog.getByText("Chosen items").click();
  const carton = dialog.getByRole("textbox", { name: /: how many to refund$/ });
  await carton.fill("1");
  // The figure on the button is the server's preview of this refund.
  const submit = dialog.getByRole("button", { name: "Refund $10.00" });
  await expect(submit).toBeVisible();
  await dialog.getByLabel("Put these items back in stock").check();
  await dialog.getByLabel("Reason").fill("One carton arrived soft");
  await screenshots(adminPage, "admin-refund-dialog-items");
  await submit.click();
  await expect(adminPage.getByText(`Refunded $10.00 of order ${shortId} to the customer's card; $10.00 of $40.00 refunded so far.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(adminPage.getByTestId("payment-badge")).toHaveText("Paid");
  await expect(adminPage.getByTestId("part-refunded-badge")).toBeVisible();
  await expect(adminPage.getByTestId("refunds")).toContainText("Partly refunded: $10.00 of $40.00");
  await expect(adminPage.getByTestId("refunds")).toContainText("(back in stock)");
  await expect(adminPage.getByTestId("refunds")).toContainText("One carton arrived soft");
  await screenshots(adminPage, "admin-order-part-refunded");

  const partEmail = await emailTo(email, /^\$10\.00 of your .* has been refunded$/);
  expect(partEmail).toMatch(new RegExp(`We've refunded \\$10\\.00 for 1 × [^\\n]+ from order ${shortId}`));
  expect(partEmail).toContain("The rest of your order stands as it was.");
  const link = orderPageLink(partEmail);
  const customer = await adminPage.context().browser()!.newPage();
  await customer.goto(link);
  const refunds = customer.getByRole("region", { name: "Partly refunded" });
  await expect(refunds).toContainText("We refunded $10.00 for 1 ×");
  await expect(refunds).toContainText("The rest of your order stands as it was.");
  await screenshots(customer, "order-page-part-refunded");

  // Then the owner cancels the order: the rest comes back, in one email saying both.
  await adminPage.getByRole("button", { name: "Cancel order" }).click();
  const cancel = adminPage.getByRole("dialog", { name: `Cancel order ${shortId}` });
  await expect(cancel).toContainText("gets the rest of what they paid back on their card");
  await cancel.getByLabel("Reason").fill("Customer moved away");
  await cancel.getByRole("button", { name: "Cancel the order" }).click();
  await expect(adminPage.getByText(`Order ${shortId} is cancelled and refunded; the customer has been emailed.`)).toBeVisible();
  await expect(adminPage.getByTestId("refunds")).toContainText("Refunded $40.00");
  const told = await emailTo(email, /was cancelled and refunded$/);
  expect(told).toContain(`We cancelled order ${shortId} before it shipped and refunded $30.00 to the card you paid with ($40.00 in all).`);
  await customer.goto(link);
  await expect(customer.getByRole("heading", { level: 1, name: "Your order was cancelled" })).toBeVisible();
  const both = customer.getByRole("region", { name: "Refunded" });
  await expect(both).toContainText("We refunded $30.00 to the card you paid with");
  await expect(both).toContainText("$40.00 of $40.00 refunded in all.");
  await screenshots(customer, "order-page-cancelled-after-part-refund");
  await customer.close();
});

test("a refund Stripe answers too late: the owner is told it is not known yet, and the order shows Refund pending, on its page and in the list", async ({
  adminPage,
}) => {
  // The stand-in refunds, but answers only after the shop's two tries have timed out (STRIPE_TIMEOUT_MS, 10 s each).
  const email = `slow-refund-${Date.now()}-${Math.floor(Math.random() * 1e6)}${STRIPE_SLOW_REFUND_TAG}example.com`;
  const { orderId, shortId } = await paidOrder(adminPage.request, email);

  await adminPage.goto(`/admin/orders/${orderId}`);
  await adminPage.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = adminPage.getByRole("dialog", { name: `Refund order ${shortId}` });
  await dialog.getByLabel("Reason").fill("Box arrived thawed");
  await dialog.getByRole("button", { name: "Refund $40.00" }).click();
  // While Stripe is asked, the button says so in words.
  await expect(dialog.getByTestId("refund-submit")).toHaveText("Asking Stripe… (up to 20 s)");

  await expect(adminPage.getByText(`it is not known yet whether $40.00 of order ${shortId} was refunded`, { exact: false })).toBeVisible({ timeout: 45_000 });
  await expect(dialog).toBeHidden();
  await expect(adminPage.getByTestId("payment-badge")).toHaveText("Paid");
  await expect(adminPage.getByTestId("refund-pending-badge")).toHaveText("Refund pending");
  const pending = adminPage.getByTestId("refund-pending");
  await expect(pending).toContainText(`Asked of Stripe by ${demoAdmin.email}`);
  await expect(pending).toContainText("Box arrived thawed");
  // Nothing to press again: the shop is asking Stripe.
  await expect(adminPage.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await screenshots(adminPage, "admin-order-refund-pending");

  await adminPage.goto("/admin");
  for (const viewport of viewports) {
    await adminPage.setViewportSize(viewport);
    const row = viewport.width < 768 ? adminPage.getByRole("listitem").filter({ hasText: shortId }) : adminPage.getByRole("row").filter({ hasText: shortId });
    await expect(row.getByTestId("refund-pending-badge")).toHaveText("Refund pending");
  }
});

test("staff see the order, but not the Refund button", async ({ staffPage, request }) => {
  const { orderId, shortId } = await paidOrder(request, uniqueEmail("staff-view"));
  await staffPage.goto(`/admin/orders/${orderId}`);
  await expect(staffPage.getByRole("heading", { name: `Order ${shortId}` })).toBeVisible();
  await expect(staffPage.getByTestId("payment-badge")).toHaveText("Paid");
  await expect(staffPage.getByLabel("Change status")).toBeEnabled();
  await expect(staffPage.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
});
