import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { fillCart } from "./checkout-helpers";

/**
 * The storefront's pages hydrate with Remix's own scripts, without an error,
 * and carry no more script than they need.
 */

/** The page's errors: React reports a document that does not match what it rendered (a hydration mismatch) there. */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("the landing page hydrates without an error", async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto("/");
  await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
  expect(errors).toEqual([]);
});

for (const path of ["/shop", "/shop/bar-banana-pb"]) {
  test(`${path} hydrates without an error, and its cart opens in place`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto(path);
    await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
    await page.getByRole("link", { name: /^Open cart/ }).click();
    await expect(page.getByRole("dialog", { name: "Your Cart" })).toBeVisible();
    expect(errors).toEqual([]);
  });
}

// The forms are checked by the server (their schemas, zod, stay there): a page's scripts carry no validation
// library. The landing page's messages once brought zod's 15 kB (gzip) into `/` and `/checkout`.
test("the landing page and the checkout load no validation library", async ({ page }) => {
  const scripts = new Map<string, string>();
  page.on("response", async (response) => {
    if (/\/build\/.*\.js$/.test(new URL(response.url()).pathname)) scripts.set(response.url(), await response.text());
  });
  await page.goto("/");
  await fillCart(page, [{ productId: "bar-banana-pb", quantity: 2 }]);
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect.poll(() => scripts.size).toBeGreaterThanOrEqual(5);
  const withZod = [...scripts].filter(([, text]) => text.includes("ZodError")).map(([url]) => url);
  expect(withZod).toEqual([]);
});
