import { expect, test } from "./fixtures";

/**
 * The demo opened at http://127.0.0.1:<port> (what many people type) moves to
 * the shop's one address first, so the cart, the payment page's returns and
 * the plain-form posts all stay on one name (and one cookie jar).
 */
test("a page asked for at 127.0.0.1 is sent to the shop's address, path and query kept", async ({ page, baseURL }) => {
  const shop = new URL(baseURL!);
  await page.goto(`http://127.0.0.1:${shop.port}/shop?category=bars`);
  await expect(page).toHaveURL(`${shop.origin}/shop?category=bars`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
