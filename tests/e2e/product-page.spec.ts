import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { fillCart } from "./checkout-helpers";

// The product pages, /shop/<id>, with JavaScript on: reached from the shop and
// the landing page, what they say about a product, and buying from them.

/** Records every Content-Security-Policy violation the page reports. */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test("a visitor opens a product from the shop, reads what is in it and buys it; the drawer says what free shipping needs", async ({ page }) => {
  const cspViolations = await watchCsp(page);
  await page.goto("/shop");
  const card = page.getByRole("article", { name: "Strawberry Bliss" });
  await expect(card.getByTestId("allergen-line")).toHaveText("Contains: peanuts, milk. Contains honey: not suitable for infants under 12 months.");
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "no reload"));
  await card.getByRole("link", { name: "Strawberry Bliss" }).click();

  await expect(page).toHaveURL(/\/shop\/bar-strawberry-pb$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Strawberry Bliss");
  await expect(page).toHaveTitle("Strawberry Bliss: Frozen PB Yogurt Bar | Chill PB");
  const main = page.getByRole("main");
  await expect(main.getByText("$6.00")).toBeVisible();
  await expect(page.getByTestId("allergen-box")).toContainText("Contains: peanuts, milk");
  await expect(page.getByTestId("allergen-box")).toContainText("Contains honey: not suitable for infants under 12 months.");
  const inside = page.getByRole("region", { name: /organic ingredients/ });
  await expect(inside.getByRole("heading")).toHaveText("All seven organic ingredients");
  await expect(inside.getByRole("listitem")).toHaveCount(7);
  await expect(inside.getByRole("listitem").nth(3)).toContainText("sun-ripened organic strawberries");
  const label = page.getByRole("region", { name: "Nutrition Facts" });
  await expect(label).toContainText("Per 100g bar");
  await expect(label.locator("dl > div")).toHaveText(["Protein10g", "Fat8g", "Refined sugars0g", "Calories<200"]);
  const allergens = page.getByRole("region", { name: "Allergens" });
  await expect(allergens.locator("dl > div")).toHaveText(["Peanutsfrom Peanut butter", "Milkfrom Greek yogurt"]);
  await expect(allergens).toContainText("Contains honey: not suitable for infants under 12 months.");
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker), "a client-side navigation").toBe("no reload");

  await page.getByRole("button", { name: "Add to cart, Strawberry Bliss" }).click();
  const popup = page.getByRole("status").filter({ hasText: "Added to cart!" });
  await expect(popup).toContainText("Qty: 1 × $6.00");
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await popup.getByRole("link", { name: "View Cart" }).click();
  await expect(page).toHaveURL(/\/shop\/bar-strawberry-pb\?cart=open$/);

  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer.getByTestId("allergen-line")).toHaveText("Contains: peanuts, milk. Honey: not for infants under 12 months.");
  await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $44.00 for free shipping");
  for (let more = 0; more < 3; more++) await drawer.getByRole("button", { name: "Add one more Strawberry Bliss" }).click();
  await expect(drawer.getByTestId("cart-total")).toHaveText("$24.00");
  // The hint follows the server's cart once it has answered.
  await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $26.00 for free shipping");

  await drawer.getByRole("link", { name: "Checkout" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const summary = page.locator(".summary");
  await expect(summary.getByTestId("free-shipping-hint")).toHaveText("Add $26.00 for free shipping");
  await expect(summary.getByTestId("allergen-line")).toContainText("Contains: peanuts, milk.");

  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.reload();
  await expect(page.getByTestId("order-total")).toHaveText("$54.00");
  await expect(summary.getByTestId("free-shipping-hint")).toHaveCount(0);
  expect(await cspViolations()).toEqual([]);
});

test("the product page tells search engines about the product, with the page's CSP nonce", async ({ page }) => {
  const cspViolations = await watchCsp(page);
  const response = await page.goto("/shop/bites-variety");
  expect(response?.status()).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(response?.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce, "the page has a CSP nonce").toBeTruthy();

  const script = page.locator('script[type="application/ld+json"]');
  await expect(script).toHaveCount(1);
  expect(await script.evaluate((element) => (element as HTMLScriptElement).nonce)).toBe(nonce);
  const data = JSON.parse((await script.textContent()) ?? "{}");
  expect(data).toMatchObject({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Chocolate Mini Bites",
    offers: { "@type": "Offer", price: "10.00", priceCurrency: "USD", availability: "https://schema.org/InStock" },
  });
  expect(data.offers.url).toMatch(/\/shop\/bites-variety$/);

  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/shop\/bites-variety$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Chocolate Mini Bites: Frozen PB Yogurt Mini Bites | Chill PB");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /Ten bite-size peanut-butter yogurt bites/);

  // Bites: only what the spec says about a carton.
  const label = page.getByRole("region", { name: "Nutrition Facts" });
  await expect(label).toContainText("Per carton of 10 bites");
  await expect(label.locator("dl > div")).toHaveText(["Protein per bite2g", "Protein per carton20g", "Bites per carton10"]);
  await expect(page.getByRole("heading", { name: "6 of our seven organic ingredients" })).toBeVisible();
  expect(await cspViolations()).toEqual([]);
});

test("the landing page's products lead to their pages and show their allergens", async ({ page }) => {
  await page.goto("/");
  const products = page.locator("#products");
  await expect(products.getByTestId("allergen-line")).toHaveCount(6);
  await expect(products.getByTestId("allergen-line").first()).toHaveText("Contains: peanuts, milk. Honey: not for infants under 12 months.");
  await products.getByRole("link", { name: "Banana Blast" }).click();
  await expect(page).toHaveURL(/\/shop\/bar-banana-pb$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Banana Blast");
  await page.getByRole("link", { name: "Back to Shop" }).click();
  await expect(page).toHaveURL(/\/shop$/);
});

test("an unknown product is the 404 page", async ({ page }) => {
  const response = await page.goto("/shop/bar-licorice");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
});

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
]) {
  test(`the product page at ${viewport.name} width fits the screen`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/shop/bar-chocolate-pb");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "page is wider than the screen").toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screenshots/product-${viewport.name}.png`, fullPage: true });
    await page.screenshot({ path: `test-results/screenshots/product-${viewport.name}-top.png` });
  });
}
