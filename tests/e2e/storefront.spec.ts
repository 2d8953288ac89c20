import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";

const productCards = (page: Page) => page.getByRole("article");

test("a visitor browses, filters, fills the cart past $20 and finds it again after a reload", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("loves you back");
  await expect(page.getByText("WELCOME10")).toBeVisible();
  for (const badge of ["High Protein", "100% Organic", "Clean Ingredients", "Kid-Friendly"]) {
    await expect(page.getByRole("list", { name: "Why you'll love it" }).getByText(badge)).toBeVisible();
  }

  await page.getByRole("main").getByRole("link", { name: "Shop Now" }).first().click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(page).toHaveTitle(/Shop/);
  await expect(productCards(page)).toHaveCount(6);

  await page.getByRole("link", { name: "100g Bars" }).click();
  await expect(page).toHaveURL(/category=bars/);
  await expect(productCards(page)).toHaveCount(3);
  await expect(page.getByRole("link", { name: "100g Bars" })).toHaveAttribute("aria-current", "page");

  // The page is never reloaded by the cart: a marker on window survives every change.
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "still here"));

  await page.getByRole("button", { name: "Add to cart, Chocolate Crunch" }).click();
  const popup = page.getByRole("status").filter({ hasText: "Added to cart!" });
  await expect(popup).toBeVisible();
  await expect(popup).toContainText("Chocolate Crunch");
  await expect(popup).toContainText("Qty: 1 × $6.00");
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await expect(popup).toBeHidden({ timeout: 6_000 });

  await page.getByRole("link", { name: /Open cart, 1 item/ }).click();
  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText("Minimum order of $20.00 required");
  await expect(drawer).toContainText("+ $10.00 shipping");
  await expect(drawer.getByRole("button", { name: "Add $14.00 more" })).toBeDisabled();

  await drawer.getByRole("button", { name: "Add one more Chocolate Crunch" }).click();
  await drawer.getByRole("button", { name: "Add one more Chocolate Crunch" }).click();
  await expect(drawer.getByLabel("Chocolate Crunch quantity")).toHaveText("3");
  await expect(drawer.getByTestId("cart-total")).toHaveText("$18.00");
  await expect(drawer.getByRole("button", { name: "Add $2.00 more" })).toBeDisabled();

  await drawer.getByRole("button", { name: "Remove one Chocolate Crunch" }).click();
  await expect(drawer.getByLabel("Chocolate Crunch quantity")).toHaveText("2");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  await page.getByRole("link", { name: "Mini Bites" }).click();
  await expect(productCards(page)).toHaveCount(3);
  await page.getByRole("button", { name: "Add to cart, Organic Banana Bites" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
  await page.getByRole("status").getByRole("link", { name: "View Cart" }).click();
  await expect(drawer).toContainText("$22.00");
  await expect(drawer).not.toContainText("Minimum order of $20.00 required");
  await expect(drawer.getByRole("link", { name: "Checkout" })).toHaveAttribute("href", "/checkout");
  await page.screenshot({ path: "test-results/screenshots/shop-cart-filled-desktop.png" });
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("still here");

  // Wait until the server has the last change, then reload.
  await expect
    .poll(() => page.evaluate(() => window.localStorage.getItem("chillpbcart")))
    .toBe(
      JSON.stringify([
        { productId: "bar-chocolate-pb", quantity: 2 },
        { productId: "bites-banana", quantity: 1 },
      ]),
    );
  await page.reload();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
});

test("a cart saved in the browser comes back when the server has none (new cookies)", async ({ page, context }) => {
  await page.goto("/shop");
  await page.getByRole("button", { name: "Add to cart, Strawberry Bliss" }).click();
  await page.getByRole("button", { name: "Add to cart, Strawberry Bliss" }).click();
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("chillpbcart"))).toContain('"quantity":2');

  await context.clearCookies();
  await page.reload();
  await expect(page.getByTestId("cart-count")).toHaveText("2");

  // Clearing the cart deletes the saved copy too.
  await page.getByRole("link", { name: /Open cart/ }).click();
  await page.getByRole("button", { name: "Clear cart" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("chillpbcart"))).toBeNull();
});

test("the popup's buttons and the keyboard work", async ({ page }) => {
  await page.goto("/shop?category=bites");
  const add = page.getByRole("button", { name: "Add to cart, Chocolate Mini Bites" });
  await add.focus();
  await page.keyboard.press("Enter");
  const popup = page.getByRole("status").filter({ hasText: "Added to cart!" });
  await expect(popup).toContainText("Qty: 1 × $10.00");
  await popup.getByRole("link", { name: "Close" }).click();
  await expect(popup).toBeHidden();

  await add.click();
  await popup.getByRole("link", { name: "Checkout" }).click();
  await expect(page).toHaveURL(/\/checkout/);
});

test("an unknown page shows the 404 page with a way home", async ({ page }) => {
  const response = await page.goto("/no-such-treat");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the shop page describes its products to search engines and social sites", async ({ page }) => {
  await page.goto("/shop");
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /Shop/);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /peanut-butter/);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(jsonLd.itemListElement).toHaveLength(6);
  expect(jsonLd.itemListElement[0].item).toMatchObject({
    "@type": "Product",
    name: "Chocolate Crunch",
    offers: { price: "6.00", priceCurrency: "USD", availability: "https://schema.org/InStock" },
  });
});
