import { expect, test } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

/**
 * Every section link on the landing page scrolls to its section, every time,
 * in any order: the header's, the hero's, the footer's quick links and the
 * phone menu's. (Only the first worked with JavaScript: decision in
 * app/components/landing/section-link.tsx.) Run with JavaScript by
 * section-links.spec.ts and without it by section-links.no-js.spec.ts.
 */

/** The section's top is just below the sticky header, not somewhere else on the page. */
export async function expectScrolledTo(page: Page, id: string, below = 160) {
  await expect(page).toHaveURL(new RegExp(`#${id}$`));
  const section = page.locator(`#${id}`);
  await expect.poll(() => section.evaluate((element) => Math.round(element.getBoundingClientRect().top)), { timeout: 5_000 }).toBeGreaterThanOrEqual(0);
  await expect.poll(() => section.evaluate((element) => Math.round(element.getBoundingClientRect().top)), { timeout: 5_000 }).toBeLessThan(below);
}

const header = (page: Page): Locator => page.getByRole("banner").getByRole("navigation", { name: "Main" });

/** The desktop tests, the same with and without JavaScript. */
export function sectionLinkTests() {
  test("desktop: header, hero and footer links reach their sections one after another", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/");
    for (const [label, id] of [
      ["Nutrition", "nutrition"],
      ["Our Story", "about"],
      ["Find Us", "locations"],
      ["Products", "products"],
      ["Nutrition", "nutrition"],
    ] as const) {
      await header(page).getByRole("link", { name: label }).click();
      await expectScrolledTo(page, id);
    }
    const footer = page.getByRole("navigation", { name: "Quick links" });
    for (const [label, id] of [
      ["About", "about"],
      ["Locations", "locations"],
      ["Products", "products"],
    ] as const) {
      await footer.getByRole("link", { name: label }).click();
      await expectScrolledTo(page, id);
    }
    await page.goBack();
    await expect(page).toHaveURL(/#locations$/);
  });

  test("with smooth scrolling (no reduced motion) the sections are still reached", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/");
    await header(page).getByRole("link", { name: "Nutrition" }).click();
    await expectScrolledTo(page, "nutrition");
    await header(page).getByRole("link", { name: "Find Us" }).click();
    await expectScrolledTo(page, "locations");
    await header(page).getByRole("link", { name: "Our Story" }).click();
    await expectScrolledTo(page, "about");
  });
}
