import { expect, test } from "./fixtures";
import type { Locator, Page } from "@playwright/test";
import { test as adminTest } from "./fixtures";
import { expectFocusInView } from "./focus-helpers";

// The headers at phone and desktop widths (nothing clipped, the landing
// sections and the admin's pages reachable from a menu), and focus that never
// stops under a sticky header.

const phone = { width: 390, height: 844 };
const desktop = { width: 1440, height: 900 };

/** The element's whole box is on the screen (once a drawer has slid in, or a scroll has ended). */
async function expectOnScreen(page: Page, locator: Locator) {
  await expect(locator).toBeVisible();
  const viewport = page.viewportSize()!;
  let box = (await locator.boundingBox())!;
  await expect(async () => {
    box = (await locator.boundingBox())!;
    expect(box.x, "left edge on screen").toBeGreaterThanOrEqual(0);
    expect(box.y, "top edge on screen").toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, "right edge on screen").toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height, "bottom edge on screen").toBeLessThanOrEqual(viewport.height);
  }).toPass({ timeout: 3_000 });
  return box;
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const [name, viewport] of [
  ["phone", phone],
  ["desktop", desktop],
] as const) {
  for (const path of ["/", "/shop"]) {
    test(`Shift+Tab from the footer to the top of ${path} never stops under the sticky header (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await page.getByRole("contentinfo").getByRole("link").last().focus();
      const first = page.locator("a[href], button:not([disabled]), summary").first();
      for (let presses = 0; presses < 80; presses += 1) {
        await page.keyboard.press("Shift+Tab");
        if (await first.evaluate((element) => element === document.activeElement)) break;
        await expectFocusInView(page);
      }
      await expect(first).toBeFocused();
    });
  }
}

test("the shop header fits a phone: the way back, the logo and the cart with its count, all whole", async ({ page }) => {
  await page.setViewportSize(phone);
  await page.goto("/shop");
  const header = page.getByRole("banner");
  const back = await expectOnScreen(page, header.getByRole("link", { name: "Back to Home" }));
  const logo = await expectOnScreen(page, header.getByRole("link", { name: "ChillPB home" }));
  const cart = await expectOnScreen(page, header.getByRole("link", { name: /Open cart/ }));
  await expectOnScreen(page, page.getByTestId("cart-count"));
  await expectOnScreen(page, header.getByText("Free shipping on orders over $50"));
  expect(overlaps(back, logo) || overlaps(logo, cart)).toBe(false);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screenshots/header-shop-phone.png" });

  await page.setViewportSize(desktop);
  await expectOnScreen(page, header.getByText("Free shipping on orders over $50"));
  await page.screenshot({ path: "test-results/screenshots/header-shop-desktop.png" });
});

test("on a phone the landing sections are in a menu that opens, leads to a section and closes", async ({ page }) => {
  await page.setViewportSize(phone);
  await page.goto("/");
  const header = page.getByRole("banner");
  await expectOnScreen(page, header.getByRole("link", { name: "ChillPB home" }));
  await expectOnScreen(page, header.getByRole("link", { name: "Shop Now" }));
  // A <details>'s summary: browsers expose it as a button with its expanded state
  // (Playwright's role engine does not, so it is found by its text).
  const menuButton = header.locator("summary", { hasText: /^Menu$/ });
  await expectOnScreen(page, menuButton);
  const menu = header.getByRole("navigation", { name: "Main" });
  await expect(menu).toBeHidden();

  await menuButton.focus();
  await page.keyboard.press("Enter");
  await expect(header.locator("details")).toHaveAttribute("open", "");
  for (const section of ["Products", "Nutrition", "Our Story", "Find Us"]) {
    await expectOnScreen(page, menu.getByRole("link", { name: section }));
  }
  await page.screenshot({ path: "test-results/screenshots/header-landing-menu-phone.png" });
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();

  await page.keyboard.press("Enter");
  await menu.getByRole("link", { name: "Nutrition" }).click();
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL(/#nutrition$/);
  const heading = page.getByRole("heading", { name: "Seven organic ingredients. That's it." });
  await expect.poll(async () => (await heading.boundingBox())?.y ?? -1).toBeGreaterThan((await header.boundingBox())!.height);
  await expectOnScreen(page, heading);
});

test("on a desktop the landing sections are links in the header, with no menu button", async ({ page }) => {
  await page.setViewportSize(desktop);
  await page.goto("/");
  const header = page.getByRole("banner");
  for (const section of ["Products", "Nutrition", "Our Story", "Find Us"]) {
    await expectOnScreen(page, header.getByRole("link", { name: section }));
  }
  await expect(header.locator("summary", { hasText: /^Menu$/ })).toBeHidden();
  await page.screenshot({ path: "test-results/screenshots/header-landing-desktop.png" });
});

adminTest("the admin header fits a phone, with its pages, the way home and Sign out in a menu", async ({ adminPage: page }) => {
  await page.setViewportSize(phone);
  await page.goto("/admin");
  await expect(page.getByTestId("status-badge").first()).toBeVisible();
  const header = page.getByRole("banner");
  await expectOnScreen(page, header.getByRole("heading", { name: "Order Management" }));
  await expect(header.getByRole("button", { name: "Sign out" })).toBeHidden();
  const menuButton = header.getByRole("button", { name: "Menu" });
  await expectOnScreen(page, menuButton);
  await page.screenshot({ path: "test-results/screenshots/header-admin-phone.png" });

  await menuButton.click();
  const drawer = page.getByRole("dialog", { name: "Menu" });
  for (const link of ["Orders", "Dashboard", "Back to Homepage"]) await expectOnScreen(page, drawer.getByRole("link", { name: link }));
  await expectOnScreen(page, drawer.getByRole("button", { name: "Sign out" }));
  await page.screenshot({ path: "test-results/screenshots/header-admin-menu-phone.png" });
  await drawer.getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(drawer).toBeHidden();

  await page.setViewportSize(desktop);
  await expect(menuButton).toBeHidden();
  for (const link of ["Orders", "Dashboard", "Back to Homepage"]) await expectOnScreen(page, header.getByRole("link", { name: link }));
  await expectOnScreen(page, header.getByRole("button", { name: "Sign out" }));
  await page.screenshot({ path: "test-results/screenshots/header-admin-desktop.png" });
});

adminTest("on a laptop the owner's every page link is in the header, whole, none scrolled out of sight", async ({ adminPage: page }) => {
  for (const width of [1024, 1280, 1366, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/admin");
    await expect(page.getByTestId("status-badge").first()).toBeVisible();
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Admin" });
    // Twelve links for an owner (Campaigns the twelfth): at 1280 px "Settings" and "System" were once past the header's edge.
    await expect(nav.getByRole("link")).toHaveCount(12);
    for (const link of await nav.getByRole("link").all()) await expectOnScreen(page, link);
    expect(await nav.evaluate((element) => element.scrollWidth <= element.clientWidth), `${width} px: the links fit without scrolling`).toBe(true);
    await expectOnScreen(page, page.getByRole("banner").getByRole("button", { name: "Sign out" }));
  }
});

test("the added-to-cart popup waits while focus is on it, then closes 4 s after focus leaves", async ({ page }) => {
  await page.clock.install();
  await page.goto("/shop?category=bars");
  await page.getByRole("button", { name: "Add to cart, Banana Blast" }).click();
  const popup = page.getByRole("status").filter({ hasText: "Added to cart!" });
  await expect(popup).toBeVisible();
  await popup.getByRole("link", { name: "View Cart" }).focus();
  await page.clock.runFor(10_000);
  await expect(popup).toBeVisible();

  await page.getByRole("link", { name: "Mini Bites" }).focus();
  await page.clock.runFor(3_000);
  await expect(popup).toBeVisible();
  await page.clock.runFor(1_500);
  await expect(popup).toBeHidden();
});
