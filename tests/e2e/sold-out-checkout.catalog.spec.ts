import { test, expect, signInDemoOwner } from "./fixtures";
import { fillCart, fillShipping, westLa } from "./checkout-helpers";

/** Without JavaScript: a sold-out line at checkout is shown, blocks the order, and is removed by its button, keeping what was typed. */
test.use({ javaScriptEnabled: false });
test.describe.configure({ mode: "serial", timeout: 60_000 });
test("a sold-out line at checkout blocks the order until it is removed", async ({ page, request }) => {
  const owner = await signInDemoOwner(request);
  expect(owner.ok()).toBe(true);
  await fillCart(page, [
    { productId: "bar-strawberry-pb", quantity: 2 },
    { productId: "bites-variety", quantity: 3 },
  ]);
  const soldOut = await request.post("/functions/v1/update-product", { data: { productId: "bar-strawberry-pb", inStock: false } });
  expect(soldOut.ok()).toBe(true);
  try {
    await page.goto("/checkout");
    const line = page.getByTestId("sold-out-line");
    await expect(line).toContainText("Strawberry Bliss");
    await expect(line).toContainText("Sold out");
    await expect(page.getByTestId("summary-notice")).toContainText("Strawberry Bliss is sold out. Please remove it from your cart.");
    await expect(page.getByRole("button", { name: /Place Order|Check Delivery & Continue/ })).toBeDisabled();
    await expect(page.getByTestId("order-total")).toHaveText("$40.00");

    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the folded summary opens by itself: the reason Place Order is off is in view.
    await page.getByTestId("sold-out-line").scrollIntoViewIfNeeded();
    await expect(page.getByTestId("sold-out-line")).toBeVisible();
    await expect(page.getByRole("button", { name: "Remove sold-out item" })).toBeVisible();
    await page.screenshot({ path: "test-results/screenshots/checkout-sold-out-phone.png" });
    // Back to a desktop: on a phone the summary (and its Remove button) is folded under its total.
    await page.setViewportSize({ width: 1440, height: 900 });

    await fillShipping(page, { ...westLa, email: "sold-out@example.com" });
    await page.getByRole("button", { name: "Remove sold-out item" }).click();
    await expect(page.getByText("We removed the sold-out items from your cart.")).toBeVisible();
    await expect(page.getByTestId("sold-out-line")).toHaveCount(0);
    await expect(page.getByLabel(/^Email/)).toHaveValue("sold-out@example.com");
    await expect(page.getByRole("button", { name: /Place Order|Check Delivery & Continue/ })).toBeEnabled();
    await page.screenshot({ path: "test-results/screenshots/checkout-sold-out-removed-desktop.png", fullPage: true });
  } finally {
    const restocked = await request.post("/functions/v1/update-product", { data: { productId: "bar-strawberry-pb", inStock: true } });
    expect(restocked.ok()).toBe(true);
  }
});
