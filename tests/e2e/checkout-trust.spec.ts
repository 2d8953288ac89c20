import { expect, test } from "./fixtures";
import { cancelOpenPayment, fillCart, fillShipping, newEmail, payOrderFor, westLa } from "./checkout-helpers";

// The total shown is the total charged, a typed code is never lost, and no cart is lost.

test("Enter in the code field applies the code", async ({ page }) => {
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("enter") });
  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("textbox", { name: "Discount code" }).press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Discount Applied!" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Discount code" })).toBeDisabled();
  // $24.00 - $2.40 + $10.00 shipping
  await expect(page.getByTestId("order-total")).toHaveText("$31.60");
  await expect(page.getByTestId("delivery-result")).toHaveCount(0);
});

test("Place Order with a typed, unapplied code applies it first and places nothing", async ({ page, context }) => {
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("typed") });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await page.getByRole("textbox", { name: "Discount code" }).fill("welcome10");
  let opened = false;
  context.on("page", () => (opened = true));
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Discount Applied!" })).toContainText("$31.60");
  await expect(page.getByTestId("order-total")).toHaveText("$31.60");
  expect(opened).toBe(false);
});

test("changing the email after applying removes the code, and the total shown is the total charged", async ({ page, context }) => {
  const returning = newEmail("returning");
  await payOrderFor(page.request, returning);

  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("first") });
  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("order-total")).toHaveText("$31.60");
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");

  await page.getByLabel(/^Email/).fill(returning);
  await page.getByLabel(/^Email/).press("Tab");
  await expect(page.getByRole("alert").filter({ hasText: "Discount Removed" })).toContainText("first-time customers only");
  await expect(page.getByTestId("order-total")).toHaveText("$34.00");
  await expect(page.getByRole("textbox", { name: "Discount code" })).toBeEnabled();

  const shown = await page.getByTestId("order-total").textContent();
  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;
  await expect(paymentTab.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
  await expect(paymentTab.getByRole("button", { name: `Pay ${shown}` })).toBeVisible();
});

test("changing the email and pressing Place Order at once is refused until the new total was shown", async ({ page, context }) => {
  const returning = newEmail("returning-fast");
  await payOrderFor(page.request, returning);
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("fast") });
  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("order-total")).toHaveText("$31.60");
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByRole("button", { name: "Place Order" })).toBeVisible();

  let opened = false;
  context.on("page", () => (opened = true));
  await page.getByLabel(/^Email/).fill(returning);
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Discount Removed" }).first()).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$34.00");
  expect(opened).toBe(false);
});

test("after Place Order this tab says where payment is; Return to checkout brings back the cart and the form", async ({ page, context }) => {
  const email = newEmail("pending");
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email });
  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("order-total")).toHaveText("$37.00");
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;
  await expect(paymentTab.getByRole("button", { name: "Pay $37.00" })).toBeVisible();

  const pending = page.getByTestId("payment-pending");
  await expect(pending.getByRole("heading", { name: "Payment continues in the new tab" })).toBeVisible();
  await expect(pending).toContainText(/Order #[0-9a-f]{8}/);
  await expect(pending).toContainText("$37.00");
  await expect(pending.getByRole("link", { name: "Continue to payment" })).toHaveAttribute("href", /\/mock-stripe\/pay\//);
  await page.screenshot({ path: "test-results/screenshots/checkout-payment-pending-desktop.png", fullPage: true });

  await pending.getByRole("button", { name: "Return to checkout" }).click();
  await expect(page.getByTestId("payment-pending")).toHaveCount(0);
  await expect(page.getByLabel(/First name/)).toHaveValue("Maya");
  await expect(page.getByLabel(/^Email/)).toHaveValue(email);
  await expect(page.getByLabel(/Street address/)).toHaveValue(westLa.address);
  await expect(page.getByRole("textbox", { name: "Discount code" })).toHaveValue("WELCOME10");
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await expect(page.getByTestId("order-total")).toHaveText("$37.00");

  // The earlier payment page can no longer be paid.
  await paymentTab.reload();
  await expect(paymentTab.getByText("This payment page is no longer open.")).toBeVisible();
});

test("Cancel on the payment page brings back the cart and the filled form", async ({ page, context }) => {
  const email = newEmail("cancel");
  await fillCart(page, [{ productId: "bar-banana-pb", quantity: 5 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email, phone: "310 555 0100" });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;
  await paymentTab.getByRole("link", { name: "Cancel and return to Chill PB" }).click();
  // Until the payment is cancelled, its cart stays with the order.
  await page.goto("/shop");
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  await cancelOpenPayment(paymentTab);

  await expect(paymentTab.getByRole("alert").filter({ hasText: "Checkout Cancelled" })).toBeVisible();
  await expect(paymentTab.getByText("5 × $6.00")).toBeVisible();
  await expect(paymentTab.getByLabel(/Last name/)).toHaveValue("Rivera");
  await expect(paymentTab.getByLabel(/^Email/)).toHaveValue(email);
  await expect(paymentTab.getByLabel(/Phone/)).toHaveValue("310 555 0100");
  await expect(paymentTab.getByLabel(/ZIP code/)).toHaveValue(westLa.zipCode);
  await expect(paymentTab.getByRole("button", { name: "Place Order" })).toBeVisible();
  expect(paymentTab.url()).not.toContain(email);

  // The first tab's cart came back too.
  await page.goto("/shop");
  await expect(page.getByTestId("cart-count")).toHaveText("5");
});

test("a cart under $20 says so as soon as the checkout opens", async ({ page }) => {
  await fillCart(page, [{ productId: "bar-strawberry-pb", quantity: 1 }]);
  await page.goto("/checkout");
  await expect(page.getByTestId("summary-notice")).toContainText("Minimum order amount is $20.00. Please add $14.00 more to your cart.");
  await expect(page.getByRole("button", { name: "Check Delivery & Continue" })).toBeDisabled();
});
