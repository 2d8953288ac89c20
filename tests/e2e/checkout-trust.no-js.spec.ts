import { expect, test } from "./fixtures";
import { cancelOpenPayment, fillCart, fillShipping, newEmail, payOrderFor, westLa } from "./checkout-helpers";

// JavaScript is off: the same promises with plain form posts.

test("Apply works on the first post: the email travels in the same form", async ({ page }) => {
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await expect(page.getByRole("button", { name: "Apply" })).toBeEnabled();
  await fillShipping(page, { ...westLa, email: newEmail("nojs-apply") });
  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Discount Applied!")).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$31.60");
  await expect(page.getByLabel(/First name/)).toHaveValue("Maya");
});

test("Enter in the code field applies the code instead of placing the order", async ({ page }) => {
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("nojs-enter") });
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await page.getByRole("textbox", { name: "Discount code" }).fill("welcome10");
  await page.getByRole("textbox", { name: "Discount code" }).press("Enter");
  await expect(page.getByText("Discount Applied!")).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$31.60");
  await expect(page).toHaveURL(/\/checkout$/);
});

test("a changed email removes the code with the reason, and the payment page asks for the total shown", async ({ page }) => {
  const returning = newEmail("nojs-returning");
  await payOrderFor(page.request, returning);
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("nojs-first") });
  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await expect(page.getByTestId("order-total")).toHaveText("$31.60");

  await page.getByLabel(/^Email/).fill(returning);
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByText("Discount Removed")).toBeVisible();
  await expect(page.getByText(/first-time customers only/).first()).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$34.00");

  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay $34.00" })).toBeVisible();
});

test("Cancel on the payment page brings back the cart and the filled form", async ({ page }) => {
  const email = newEmail("nojs-cancel");
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email });
  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();

  // Back at the checkout: it says an order waits for payment.
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { name: "Your order is waiting for payment" })).toBeVisible();
  await page.getByRole("link", { name: "Continue to payment" }).click();
  await page.getByRole("link", { name: "Cancel and return to Chill PB" }).click();
  await cancelOpenPayment(page);

  await expect(page.getByText("Checkout Cancelled")).toBeVisible();
  await expect(page.getByText("3 × $10.00")).toBeVisible();
  await expect(page.getByLabel(/First name/)).toHaveValue("Maya");
  await expect(page.getByLabel(/^Email/)).toHaveValue(email);
  await expect(page.getByRole("textbox", { name: "Discount code" })).toHaveValue("WELCOME10");
  await expect(page.getByTestId("order-total")).toHaveText("$37.00");
  await expect(page.getByRole("button", { name: "Place Order" })).toBeEnabled();
});
