import { expect, test } from "./fixtures";

// The "chromium-no-js" project runs these with JavaScript disabled: the product
// page is reached by plain links and bought from with a plain form post.

test("open a product from the shop, add it to the cart and see the drawer's free-shipping hint", async ({ page }) => {
  await page.goto("/shop?category=bites");
  const card = page.getByRole("article", { name: "Chocolate Mini Bites" });
  await expect(card.getByTestId("allergen-line")).toContainText("Contains: peanuts, milk.");
  await card.getByRole("link", { name: "Chocolate Mini Bites" }).click();

  await expect(page).toHaveURL(/\/shop\/bites-variety$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chocolate Mini Bites");
  await expect(page.getByTestId("allergen-box")).toContainText("Contains honey: not suitable for infants under 12 months.");
  await expect(page.getByRole("region", { name: "Nutrition Facts" })).toContainText("Per carton of 10 bites");

  await page.getByRole("button", { name: "Add to cart, Chocolate Mini Bites" }).click();
  await expect(page).toHaveURL(/\/shop\/bites-variety$/);
  const popup = page.getByRole("status").filter({ hasText: "Added to cart!" });
  await expect(popup).toContainText("Qty: 1 × $10.00");
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await popup.getByRole("link", { name: "View Cart" }).click();
  await expect(page).toHaveURL(/\/shop\/bites-variety\?cart=open$/);
  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer.getByTestId("allergen-line")).toHaveText("Contains: peanuts, milk. Honey: not for infants under 12 months.");
  await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $40.00 for free shipping");

  await drawer.getByRole("button", { name: "Add one more Chocolate Mini Bites" }).click();
  await expect(page).toHaveURL(/\/shop\/bites-variety\?cart=open$/);
  await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $30.00 for free shipping");
  for (let more = 0; more < 3; more++) await drawer.getByRole("button", { name: "Add one more Chocolate Mini Bites" }).click();
  await expect(drawer.getByTestId("cart-total")).toHaveText("$50.00");
  await expect(drawer).toContainText("Free shipping");
  await expect(drawer.getByTestId("free-shipping-hint")).toHaveCount(0);
});

test("the checkout's order summary says what free shipping needs", async ({ page }) => {
  await page.goto("/shop/bar-banana-pb");
  for (let added = 0; added < 4; added++) await page.getByRole("button", { name: "Add to cart, Banana Blast" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("4");
  await page.goto("/checkout");
  const summary = page.locator(".summary");
  await expect(summary.getByTestId("free-shipping-hint")).toHaveText("Add $26.00 for free shipping");
  await expect(summary.getByTestId("allergen-line")).toContainText("Contains: peanuts, milk.");
});

test("an unknown product is the 404 page", async ({ page }) => {
  const response = await page.goto("/shop/bites-licorice");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
});
