import { expect, test } from "./fixtures";
import { cancelOpenPayment, fillCart, fillShipping, newEmail, westLa } from "./checkout-helpers";

/** Without JavaScript, what each post carried is kept by the server: opening the checkout again finds it (decision 040). */

test("the form a post carried comes back when the checkout is opened again", async ({ page }) => {
  const email = newEmail("nojs-refresh");
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");

  await page.goto("/checkout");
  await expect(page.getByLabel(/First name/)).toHaveValue(westLa.firstName);
  await expect(page.getByLabel(/^Email/)).toHaveValue(email);
  await expect(page.getByLabel(/ZIP code/)).toHaveValue(westLa.zipCode);
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  expect(page.url()).toMatch(/\/checkout$/);
});

test("after Cancel on the payment page, reloading the checkout keeps the form", async ({ page }) => {
  const email = newEmail("nojs-cancel-reload");
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email });
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await page.getByRole("button", { name: "Place Order" }).click();
  await page.getByRole("link", { name: "Cancel and return to Chill PB" }).click();
  await cancelOpenPayment(page);
  await expect(page.getByText("Checkout Cancelled")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/^Email/)).toHaveValue(email);
  await expect(page.getByLabel(/Street address/)).toHaveValue(westLa.address);
});
