import { test } from "./fixtures";
import { expectScrolledTo, sectionLinkTests } from "./section-links.shared";

/** Without JavaScript (plain fragment links); the desktop tests are the shared ones. */
sectionLinkTests();

test("phone: the menu's links reach their sections one after another (below the menu, which stays open)", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.locator("summary.landing-menu__button").click();
  for (const [label, id] of [
    ["Our Story", "about"],
    ["Find Us", "locations"],
    ["Nutrition", "nutrition"],
  ] as const) {
    await page.locator(".landing-menu__panel").getByRole("link", { name: label }).click();
    // Without JavaScript the open menu stays, and the stylesheet stops each section below it.
    await expectScrolledTo(page, id, 420);
  }
});
