import { expect, test } from "./fixtures";

// The "chromium-no-js" project runs these with JavaScript disabled: every
// step is a plain link or form post.

test("filter, add to cart, open the drawer and change quantities with plain form posts", async ({ page }) => {
  await page.goto("/shop");
  await page.getByRole("link", { name: "100g Bars" }).click();
  await expect(page).toHaveURL(/category=bars/);
  await expect(page.getByRole("article")).toHaveCount(3);

  await page.getByRole("button", { name: "Add to cart, Banana Blast" }).click();
  await expect(page).toHaveURL(/\/shop\?category=bars#product-bar-banana-pb$/);
  const popup = page.getByRole("status").filter({ hasText: "Added to cart!" });
  await expect(popup).toContainText("Qty: 1 × $6.00");
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await popup.getByRole("link", { name: "View Cart" }).click();
  await expect(page).toHaveURL(/cart=open/);
  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer.getByRole("button", { name: "Add $14.00 more" })).toBeDisabled();

  await drawer.getByRole("button", { name: "Add one more Banana Blast" }).click();
  await expect(drawer.getByLabel("Banana Blast quantity")).toHaveText("2");
  // The server's figures, rendered with the page: the line's total, the subtotal, shipping and what free shipping needs.
  await expect(drawer.getByTestId("cart-line-total")).toHaveText("· 2 for $12.00");
  await expect(drawer.getByTestId("cart-total")).toHaveText("$12.00");
  await expect(drawer.getByTestId("cart-shipping")).toHaveText("+ $10.00 shipping");
  await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $38.00 for free shipping");
  await expect(drawer.getByRole("button", { name: "Add $8.00 more" })).toBeDisabled();
  await expect(page).toHaveURL(/cart=open/);

  await drawer.getByRole("button", { name: "Remove one Banana Blast" }).click();
  await expect(drawer.getByLabel("Banana Blast quantity")).toHaveText("1");

  await drawer.getByRole("button", { name: "Remove Banana Blast from cart" }).click();
  await expect(drawer).toContainText("Your cart is empty.");
  await expect(page.getByTestId("cart-count")).toHaveText("0");

  // The popup left by the add is shown once only.
  await expect(page.getByRole("status").filter({ hasText: "Added to cart!" })).toHaveCount(0);
});

test("the drawer opens from the header's cart link and closes again", async ({ page }) => {
  await page.goto("/shop");
  await page.getByRole("link", { name: /Open cart, 0 items/ }).click();
  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer).toContainText("Your cart is empty.");
  await drawer.getByRole("link", { name: "Close cart" }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/shop$/);
});
