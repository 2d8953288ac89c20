import type { Page } from "@playwright/test";
import type { OfferedDate } from "../../app/lib/delivery-schedule";
import { expect, test } from "./fixtures";
import { emailTo, orderPageLink, paidOrder, uniqueEmail } from "./order-helpers";

/**
 * The customer changes their delivery day from their order page (issue 39
 * item 5, decision 100), with JavaScript and without: among the days on
 * offer, with a toast, an email confirming the new day, and the page showing it.
 */

async function openDays(page: Page) {
  const answer = await page.request.post("/functions/v1/get-delivery-dates", { data: { zipCode: "90025" } });
  return ((await answer.json()) as { dates: OfferedDate[] }).dates.filter((date) => date.available);
}

async function changeDay(page: Page, label: string) {
  const email = uniqueEmail("day-change");
  await paidOrder(page.request, email);
  await page.goto(orderPageLink(await emailTo(email, /is confirmed/)));
  const [first] = await openDays(page);
  await expect(page.getByTestId("order-delivery")).toHaveText(first!.label);
  const section = page.getByRole("region", { name: "Change your delivery day" });
  await expect(section.getByRole("radio", { name: first!.label })).toBeChecked();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/order-page-delivery-day-${width}.png`, fullPage: true });
  }
  await section.getByRole("radio", { name: label }).check();
  await section.getByRole("button", { name: "Change delivery day" }).click();
  await expect(page.getByTestId("order-delivery")).toHaveText(label);
  expect(await emailTo(email, /now arrives/)).toContain(`Your delivery day is now ${label}.`);
}

test("with JavaScript: the customer picks another day on their order page; the page, a toast and an email say it", async ({ page }) => {
  const [, , third] = await openDays(page);
  await changeDay(page, third!.label);
  await expect(page.getByRole("status").filter({ hasText: "Delivery Day Changed" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the change is a plain form post", async ({ page }) => {
    const [, second] = await openDays(page);
    await changeDay(page, second!.label);
    await expect(page.getByText("Delivery Day Changed")).toBeVisible();
  });
});
