import { expect, test } from "./fixtures";
import { expectScrolledTo, sectionLinkTests } from "./section-links.shared";

sectionLinkTests();

test("phone: the menu's links reach their sections one after another", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  for (const [label, id] of [
    ["Our Story", "about"],
    ["Find Us", "locations"],
    ["Nutrition", "nutrition"],
  ] as const) {
    await page.locator("summary.landing-menu__button").click();
    await page.locator(".landing-menu__panel").getByRole("link", { name: label }).click();
    await expectScrolledTo(page, id);
    await expect(page.locator(".landing-menu__panel")).toBeHidden();
  }
});
