import { expect, test } from "./fixtures";
import { fillCart, fillShipping, newEmail, westLa } from "./checkout-helpers";

/**
 * The layouts measured on a 390 px phone. Their screenshots are the
 * README's (docs/screenshots/).
 */
test.use({ viewport: { width: 390, height: 844 } });

test("checkout on a phone: the summary comes first, folded to its total, and opens in place", async ({ page }) => {
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  const bar = page.locator("summary.summary-toggle__bar");
  await expect(bar).toBeVisible();
  await expect(bar).toContainText("Order summary");
  await expect(bar).toContainText("$40.00");
  // Above the form, and the lines folded away.
  const barTop = (await bar.boundingBox())!.y;
  expect(barTop).toBeLessThan((await page.getByRole("heading", { name: "Shipping Information" }).boundingBox())!.y);
  await expect(page.getByTestId("order-total")).toBeHidden();
  await fillShipping(page, { ...westLa, email: newEmail("phone") });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "docs/screenshots/checkout-summary-folded-phone.png", fullPage: true });

  await bar.click();
  await expect(page.getByTestId("order-total")).toHaveText("$40.00");
  // Place Order stays below the form.
  const placeOrder = page.getByRole("button", { name: "Check Delivery & Continue" });
  expect((await placeOrder.boundingBox())!.y).toBeGreaterThan((await page.getByRole("heading", { name: "Discount Code" }).boundingBox())!.y);
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("checkout on a desktop: the summary is open beside the form, with no fold", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await expect(page.locator("summary.summary-toggle__bar")).toBeHidden();
  await expect(page.getByTestId("order-total")).toBeVisible();
});

test("admin orders on a phone: each order a card, its status and its control on screen", async ({ adminPage: page }) => {
  // /admin/orders, the address an operator types, leads to the list too.
  await page.goto("/admin/orders");
  const first = page.getByRole("list", { name: "Orders" }).getByRole("listitem").first();
  await expect(first).toBeVisible();
  // The list, not the admin's "Page not found".
  await expect(page.getByText("Page not found")).toHaveCount(0);
  // One copy of each order: the table is not rendered behind the cards.
  await expect(page.getByRole("table")).toHaveCount(0);
  const select = first.getByLabel(/Status of order/);
  await expect(select).toBeInViewport();
  const box = (await select.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "docs/screenshots/admin-orders-phone.png" });
});
