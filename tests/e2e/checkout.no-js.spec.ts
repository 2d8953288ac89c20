import { expect, test } from "./fixtures";
import { cancelOpenPayment, fillCart, fillShipping, westLa } from "./checkout-helpers";

// JavaScript is off: every checkout step is a plain form post to /checkout.

test("a full purchase with plain form posts, through the payment page to Order Confirmed", async ({ page }) => {
  await fillCart(page, [
    { productId: "bar-strawberry-pb", quantity: 2 },
    { productId: "bites-strawberry", quantity: 2 },
  ]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: `nojs-${Date.now()}@example.com` });

  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await expect(page.getByLabel(/First name/)).toHaveValue("Maya");

  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Discount Applied!")).toBeVisible();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  // $32.00 - $3.20 + $10.00 shipping
  await expect(page.getByTestId("order-total")).toHaveText("$38.80");

  await page.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Discount Removed")).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$42.00");

  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByRole("button", { name: /Pay \$42\.00/ }).click();
  await expect(page.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
  await expect(page.getByText(/^nojs-\d+@example\.com$/)).toBeVisible();

  await page.goto("/shop");
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("a declined card, then cancel: the cart is saved", async ({ page }) => {
  await fillCart(page, [{ productId: "bites-variety", quantity: 2 }]);
  await page.goto("/checkout");
  await fillShipping(page, westLa);
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await page.getByRole("button", { name: "Place Order" }).click();

  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByRole("button", { name: /Pay/ }).click();
  await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
  await page.getByRole("link", { name: "Cancel and return to Chill PB" }).click();
  await expect(page.getByText("2 × $10.00")).toBeVisible();
  await cancelOpenPayment(page);
  await expect(page.getByText("Checkout Cancelled")).toBeVisible();
  await expect(page.getByText("2 × $10.00")).toBeVisible();
});

test("an address outside the area shows the contact card", async ({ page }) => {
  await fillCart(page, [{ productId: "bites-variety", quantity: 2 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, city: "Bakersfield", zipCode: "93301" });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByText("Outside Delivery Area").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Send Email" })).toHaveAttribute("href", /^mailto:/);
});
