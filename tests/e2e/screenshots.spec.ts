import { expect, test } from "./fixtures";

// Renders the storefront at phone and desktop widths, checks that nothing
// spills sideways, and keeps the pictures in test-results/screenshots/ to look at.
const viewports = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];
const pages = [
  { name: "landing", path: "/" },
  { name: "shop", path: "/shop" },
  { name: "shop-cart", path: "/shop?cart=open" },
  { name: "not-found", path: "/not-a-page" },
];

for (const viewport of viewports) {
  for (const target of pages) {
    test(`${target.name} at ${viewport.name} width`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(target.path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "page is wider than the screen").toBeLessThanOrEqual(0);
      await page.screenshot({
        path: `test-results/screenshots/${target.name}-${viewport.name}.png`,
        fullPage: target.name !== "shop-cart",
      });
    });
  }
}
