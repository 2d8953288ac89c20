import type { APIRequestContext, Page } from "@playwright/test";
import type { OfferedDate } from "../../app/lib/delivery-schedule";
import { expect, test } from "./fixtures";
import { ownerSettings, saveSettings } from "./settings-helpers";
import type { SettingsJson } from "../../app/models/settings.server";
import { fillCart, fillShipping, newEmail, westLa } from "./checkout-helpers";
import { emailTo } from "./order-helpers";

/**
 * Delivery days at checkout (issue 39, decision 100): once the address is
 * checked the customer chooses a day and a window among those on offer, with
 * JavaScript or without, and the summary, the confirmation page and both
 * emails state it. A "settings" spec: it gives the shop delivery windows on
 * the shared server, so its project runs last, one spec at a time, and each
 * test puts the requirements' schedule back.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const WINDOWS = [
  { id: "morning", label: "9am–12pm", start: "09:00", end: "12:00", capacity: null },
  { id: "afternoon", label: "1pm–5pm", start: "13:00", end: "17:00", capacity: null },
];

let defaults: SettingsJson;
test.beforeAll(async ({ request }) => {
  defaults = await ownerSettings(request);
});
test.beforeEach(async ({ request }) => {
  await ownerSettings(request);
  await saveSettings(request, { ...defaults, delivery: { ...defaults.delivery, slots: WINDOWS } });
});
test.afterEach(async ({ request }) => {
  await ownerSettings(request);
  await saveSettings(request, defaults);
});

/** The days the shop offers West LA now, as get-delivery-dates answers them: the second one with room is the test's choice. */
async function secondDay(request: APIRequestContext) {
  const answer = await request.post("/functions/v1/get-delivery-dates", { data: { zipCode: westLa.zipCode } });
  expect(answer.ok()).toBe(true);
  const { dates } = (await answer.json()) as { dates: OfferedDate[] };
  const open = dates.filter((date) => date.available);
  return { first: open[0]!, second: open[1]! };
}

async function checkAndChoose(page: Page, email: string, day: OfferedDate) {
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  const picker = page.getByRole("group", { name: "Delivery day" });
  await expect(picker).toBeVisible();
  return picker.getByRole("group", { name: day.label }).getByRole("radio", { name: "1pm–5pm" });
}

test("with JavaScript: the earliest day is chosen, another day and window are picked, paid, and stated on the confirmation and in both emails", async ({
  page,
  context,
  request,
}) => {
  const { first, second } = await secondDay(request);
  const email = newEmail("delivery-day");
  const afternoon = await checkAndChoose(page, email, second);
  // The earliest day's first window is chosen until the customer picks another.
  const picker = page.getByRole("group", { name: "Delivery day" });
  await expect(picker.getByRole("group", { name: first.label }).getByRole("radio", { name: "9am–12pm" })).toBeChecked();
  await expect(page.getByTestId("summary-delivery")).toHaveText(`Delivery: ${first.label}, 9am–12pm`);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await picker.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/checkout-delivery-day-${width}.png`, fullPage: true });
  }
  await afternoon.check();
  await expect(page.getByTestId("summary-delivery")).toHaveText(`Delivery: ${second.label}, 1pm–5pm`);

  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;
  await paymentTab.getByLabel("Card number").fill("4242 4242 4242 4242");
  await paymentTab.getByRole("button", { name: /Pay \$/ }).click();
  await expect(paymentTab.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
  await expect(paymentTab.getByText(`${second.label}, 1pm–5pm`, { exact: true })).toBeVisible();

  expect(await emailTo(email, /is confirmed/)).toContain(`Delivery: ${second.label}, 1pm–5pm`);
  expect(await emailTo(email, /^New order/)).toContain(`Delivery: ${second.label}, 1pm–5pm`);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the days are radio buttons of the form: the chosen day and window are placed, paid and confirmed", async ({ page, request }) => {
    const { second } = await secondDay(request);
    const email = newEmail("delivery-day-nojs");
    const afternoon = await checkAndChoose(page, email, second);
    await afternoon.check();
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
    await page.getByLabel("Card number").fill("4242424242424242");
    await page.getByRole("button", { name: /Pay \$/ }).click();
    await expect(page.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
    await expect(page.getByText(`${second.label}, 1pm–5pm`, { exact: true })).toBeVisible();
    expect(await emailTo(email, /is confirmed/)).toContain(`Delivery: ${second.label}, 1pm–5pm`);
  });
});
