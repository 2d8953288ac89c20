import { expect, test } from "./fixtures";
import type { Locator, Page } from "@playwright/test";
import { fillCart, fillShipping, westLa } from "./checkout-helpers";

// JavaScript is off ("chromium-no-js" project): after every plain post the
// visitor is where they were, what the server answered is in view, and what
// opens can be closed.

// Jumps, not smooth scrolls, so a scroll position read once is where the page stays.
test.use({ reducedMotion: "reduce" });

/** The element is inside the viewport, below the sticky header. */
async function expectInView(page: Page, locator: Locator) {
  await expect(locator).toBeInViewport();
  const box = (await locator.boundingBox())!;
  const header = await page.locator(".landing-header, .shop-header").first().boundingBox();
  expect(box.y, "below the sticky header").toBeGreaterThanOrEqual(header ? header.y + header.height - 1 : 0);
}

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
]) {
  test(`adding a product brings the visitor back to it, filter kept (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/shop?category=bites");
    await page.getByRole("button", { name: "Add to cart, Organic Banana Bites" }).click();
    await expect(page).toHaveURL(/\/shop\?category=bites#product-bites-banana$/);
    const card = page.getByRole("article", { name: "Organic Banana Bites" });
    await expectInView(page, card.getByRole("heading", { name: "Organic Banana Bites" }));
    await expect(card.getByRole("button", { name: "Add to cart, Organic Banana Bites" })).toBeInViewport();
    await expect(page.getByRole("article")).toHaveCount(3);
    await page.screenshot({ path: `test-results/screenshots/no-js-added-${viewport.name}.png` });

    // The popup closes in place, without a reload that would lose the place again.
    const popup = page.getByRole("status").filter({ hasText: "Added to cart!" });
    await expect(popup).toBeVisible();
    const scrolled = await page.evaluate(() => window.scrollY);
    // The close button is a <details>'s summary (a button to assistive technology), named by its label.
    await page.getByLabel("Close", { exact: true }).click();
    await expect(popup).toBeHidden();
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    await expect(page).toHaveURL(/#product-bites-banana$/);
  });

  test(`the newsletter's error is in view after the post (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/");
    await page.getByPlaceholder("Enter your email").fill("not-an-email");
    await page.getByRole("button", { name: "Join Now" }).click();
    const error = page.getByRole("alert").filter({ hasText: "Invalid Email" });
    await expect(error).toContainText("Please enter a valid email address.");
    await expectInView(page, error);
    await expect(page.getByPlaceholder("Enter your email")).toBeInViewport();
    await expect(page.getByPlaceholder("Enter your email")).toHaveValue("not-an-email");
  });
}

test("a toast from the server can be dismissed without JavaScript, in place", async ({ page }) => {
  await page.goto("/");
  await page.getByPlaceholder("Enter your email").fill(`nojs-toast-${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Join Now" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Welcome to Chill PB!" });
  await expect(toast).toBeVisible();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled, "the success lands at the newsletter too").toBeGreaterThan(0);
  await page.getByLabel("Dismiss", { exact: true }).click();
  await expect(toast).toBeHidden();
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
});

test("on a phone the section menu works without JavaScript, and a chosen section shows below it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const menuButton = page.getByRole("banner").locator("summary", { hasText: /^Menu$/ });
  await menuButton.click();
  const menu = page.getByRole("banner").getByRole("navigation", { name: "Main" });
  await menu.getByRole("link", { name: "Find Us" }).click();
  await expect(page).toHaveURL(/#locations$/);
  // The menu stays open (nothing can close it without JavaScript): the section stops below it.
  const menuBox = (await menu.boundingBox())!;
  const heading = page.getByRole("heading", { name: "Delivered frozen across West LA & the South Bay" });
  await expect(heading).toBeInViewport();
  expect((await heading.boundingBox())!.y).toBeGreaterThanOrEqual(menuBox.y + menuBox.height);
  await page.screenshot({ path: "test-results/screenshots/no-js-landing-menu-phone.png" });
  await menuButton.click();
  await expect(menu).toBeHidden();
});

test("without JavaScript the checkout does not promise a new tab: payment follows in this one", async ({ page }) => {
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await expect(page.getByText(/new tab/i)).toHaveCount(0);
  await expect(page.getByText("Secure payment by Stripe: you go to its payment page next.")).toBeVisible();
  await fillShipping(page, westLa);
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await expect(page.getByText(/new tab/i)).toHaveCount(0);
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
});
