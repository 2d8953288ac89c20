import type { Locator, Page } from "@playwright/test";
import { DEFAULT_DELIVERY_SCHEDULE } from "../../app/lib/delivery-schedule";
import type { SettingsJson } from "../../app/models/settings.server";
import { test, expect } from "./fixtures";

/**
 * The owner's Settings page (the shop's terms) and the discount code form's
 * kinds and preview. Saving settings changes what every cart on the shared
 * server pays, so these run in the "settings" project (after every other spec,
 * one file at a time) and each test that saves puts the requirements' terms
 * back through the API, whatever happened.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

async function getSettings(page: Page): Promise<SettingsJson> {
  const response = await page.request.post("/functions/v1/get-settings", {
    data: {},
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as SettingsJson;
}

/** The requirements' terms (app/lib/shop-settings.ts) and delivery days (app/lib/delivery-schedule.ts), with the kitchen the server had before the test. */
async function restoreDefaults(page: Page, kitchen: SettingsJson["kitchen"]) {
  const shopWide = { shippingFee: null, freeShippingThreshold: null };
  const response = await page.request.post("/functions/v1/save-settings", {
    data: {
      shippingFee: 10,
      freeShippingThreshold: 50,
      minimumOrder: 20,
      kitchen,
      zones: [
        { name: "standard", upToMiles: 10, minimumOrder: 0, ...shopWide },
        { name: "extended", upToMiles: 20, minimumOrder: 50, ...shopWide },
        { name: "premium", upToMiles: 25, minimumOrder: 100, ...shopWide },
      ],
      delivery: DEFAULT_DELIVERY_SCHEDULE,
    },
  });
  expect(response.ok()).toBe(true);
}

/** A picture of one part of the page as it lies on the whole page: no sticky header or toast drawn over it. */
async function screenshotOf(page: Page, part: Locator, path: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await part.boundingBox();
  if (!box) throw new Error(`${path}: the part is not on the page`);
  await page.screenshot({ path, fullPage: true, clip: box });
}

const shopWide = (page: Page) => page.getByRole("region", { name: "Shipping and minimum order" });
const zone = (page: Page, number: number) => page.getByRole("group", { name: `Zone ${number}` });

test("the owner changes the shipping fee and free shipping and saves them", async ({ adminPage: page }) => {
  const before = await getSettings(page);
  try {
    await page.goto("/admin/settings");
    const fee = shopWide(page).getByRole("textbox", {
      name: "Shipping fee ($)",
    });
    const freeFrom = shopWide(page).getByRole("textbox", {
      name: "Free shipping from ($)",
    });
    // The first admin page of a fresh server on a busy machine can take a while.
    await expect(fee).toHaveValue("10.00", { timeout: 20_000 });
    await expect(freeFrom).toHaveValue("50.00");
    await expect(zone(page, 2).getByRole("textbox", { name: "Up to (miles)" })).toHaveValue("20");

    await fee.fill("12.50");
    await freeFrom.fill("60");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Settings saved")).toBeVisible();
    // The form shows what the server now holds.
    await expect(freeFrom).toHaveValue("60.00");
    const saved = await getSettings(page);
    expect(saved).toMatchObject({
      shippingFee: 12.5,
      freeShippingThreshold: 60,
      minimumOrder: 20,
    });

    await page.reload();
    await expect(shopWide(page).getByRole("textbox", { name: "Shipping fee ($)" })).toHaveValue("12.50");
    await expect(shopWide(page).getByRole("textbox", { name: "Free shipping from ($)" })).toHaveValue("60.00");
  } finally {
    await restoreDefaults(page, before.kitchen);
  }
});

test("the owner sets the kitchen by its street address: found, its zones shown, the coordinates saved with it", async ({ adminPage: page }) => {
  const before = await getSettings(page);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/admin/settings");
    const kitchen = page.getByRole("region", { name: "Kitchen" });
    await expect(kitchen.getByRole("textbox", { name: "Kitchen latitude" })).toHaveValue(String(before.kitchen.lat), { timeout: 20_000 });
    const finder = kitchen.getByRole("group", { name: "Find the kitchen by its address" });
    // A ZIP code that is not one: the server's message beside the field, the values kept.
    await finder.getByRole("textbox", { name: "Street address" }).fill("2400 Main St");
    await finder.getByRole("textbox", { name: "City" }).fill("Santa Monica");
    await finder.getByRole("textbox", { name: "ZIP code" }).fill("904");
    await finder.getByRole("button", { name: "Find the kitchen" }).click();
    await expect(finder.getByText("Enter a 5-digit ZIP code")).toBeVisible();
    await finder.getByRole("textbox", { name: "ZIP code" }).fill("90405");
    // Enter in a field finds it, and does not save the settings.
    await finder.getByRole("textbox", { name: "ZIP code" }).press("Enter");
    const found = kitchen.getByTestId("kitchen-found");
    await expect(found).toContainText("Found: 2400 Main St, Santa Monica, CA 90405");
    await expect(found.getByRole("row", { name: /^standard/ })).toContainText("Santa Monica 0 mi");
    await expect(kitchen.getByRole("textbox", { name: "Kitchen latitude" })).not.toHaveValue(String(before.kitchen.lat));
    const lat = await kitchen.getByRole("textbox", { name: "Kitchen latitude" }).inputValue();
    expect((await getSettings(page)).kitchen).toEqual(before.kitchen);
    await kitchen.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/screenshots/admin-settings-kitchen-1440.png", fullPage: true });

    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Settings saved")).toBeVisible();
    await expect(kitchen.getByTestId("kitchen-address")).toHaveText("Kitchen address: 2400 Main St, Santa Monica, CA 90405");
    expect((await getSettings(page)).kitchen).toEqual({ lat: Number(lat), lon: expect.any(Number), address: "2400 Main St, Santa Monica, CA 90405" });

    await page.setViewportSize({ width: 390, height: 844 });
    await finder.getByRole("button", { name: "Find the kitchen" }).click();
    await expect(found).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "Settings is wider than the phone").toBeLessThanOrEqual(0);
    await found.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/screenshots/admin-settings-kitchen-390.png" });
  } finally {
    await restoreDefaults(page, { ...before.kitchen, address: before.kitchen.address ?? null });
  }
});

test("a zone that does not reach beyond the one before it is refused beside its field, with every value kept", async ({ adminPage: page }) => {
  const before = await getSettings(page);
  try {
    await page.goto("/admin/settings");
    const fee = shopWide(page).getByRole("textbox", {
      name: "Shipping fee ($)",
    });
    await expect(fee).toHaveValue("10.00", { timeout: 20_000 });

    // A zone added and removed again leaves the list as it was.
    await page.getByRole("button", { name: "Add zone" }).click();
    await expect(zone(page, 4)).toBeVisible();
    await page.getByRole("button", { name: "Remove zone 4" }).click();
    await expect(zone(page, 4)).toHaveCount(0);

    await fee.fill("11");
    const miles = zone(page, 2).getByRole("textbox", { name: "Up to (miles)" });
    await miles.fill("8");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(zone(page, 2).getByText("Must reach further than the zone before it (10 miles)")).toBeVisible();
    await expect(miles).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please correct the fields marked in red.")).toBeVisible();
    await expect(miles).toHaveValue("8");
    await expect(fee).toHaveValue("11");
    await page.screenshot({
      path: "test-results/screenshots/admin-settings-error-desktop.png",
      fullPage: true,
    });

    // Nothing was saved.
    expect(await getSettings(page)).toMatchObject({ shippingFee: 10 });
  } finally {
    await restoreDefaults(page, before.kitchen);
  }
});

test("the owner sets the delivery days: weekdays, a day's room, a closed date, a window and a zone's own days, kept; a window ending before it starts is refused beside its field", async ({
  adminPage: page,
}) => {
  const before = await getSettings(page);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/admin/settings");
    const delivery = page.getByRole("region", { name: "Delivery days" });
    const weekdays = delivery.getByRole("group", { name: "Delivery weekdays" });
    const preview = delivery.getByTestId("delivery-preview");
    await expect(weekdays.getByRole("checkbox", { name: "Friday" })).toBeChecked({ timeout: 20_000 });
    await expect(weekdays.getByRole("checkbox", { name: "Saturday" })).not.toBeChecked();
    await expect(preview).toContainText("Choose your delivery day at checkout: Monday to Friday, order by 2pm for delivery in 2 days");
    await expect(delivery.getByText("Los Angeles time (America/Los_Angeles)")).toBeVisible();

    await weekdays.getByRole("checkbox", { name: "Friday" }).uncheck();
    await expect(preview).toContainText("Monday to Thursday, order by 2pm");
    await delivery.getByRole("textbox", { name: "Orders a day" }).fill("30");

    await delivery.getByLabel("Closed date to add").fill("2030-12-25");
    await delivery.getByRole("button", { name: "Add closed date" }).click();
    await expect(delivery.getByRole("button", { name: "Remove Wednesday, December 25, 2030" })).toBeVisible();

    await delivery.getByRole("button", { name: "Add window" }).click();
    const window1 = delivery.getByRole("group", { name: "Window 1" });
    await window1.getByRole("textbox", { name: "Label" }).fill("9am–12pm");
    await window1.getByLabel("Start").fill("09:00");
    await window1.getByLabel("End").fill("12:00");
    await window1.getByRole("textbox", { name: "Room" }).fill("10");

    const premiumOwn = delivery.getByRole("switch", { name: "Own days for the premium zone" });
    await expect(premiumOwn).not.toBeChecked();
    await premiumOwn.check({ force: true });
    await delivery.getByRole("group", { name: "Days for the premium zone" }).getByRole("checkbox", { name: "Saturday" }).check();

    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Settings saved")).toBeVisible();
    expect((await getSettings(page)).delivery).toEqual({
      days: ["mon", "tue", "wed", "thu"],
      leadDays: 2,
      cutoff: "14:00",
      windowDays: 14,
      capacityPerDay: 30,
      closedDates: ["2030-12-25"],
      slots: [{ id: "9am-12pm", label: "9am–12pm", start: "09:00", end: "12:00", capacity: 10 }],
      zoneDays: { premium: ["sat"] },
    });

    // Every value is kept.
    await page.reload();
    await expect(weekdays.getByRole("checkbox", { name: "Thursday" })).toBeChecked({ timeout: 20_000 });
    await expect(weekdays.getByRole("checkbox", { name: "Friday" })).not.toBeChecked();
    await expect(preview).toContainText("Monday to Thursday, order by 2pm for delivery in 2 days");
    await expect(delivery.getByRole("textbox", { name: "Orders a day" })).toHaveValue("30");
    await expect(delivery.getByRole("button", { name: "Remove Wednesday, December 25, 2030" })).toBeVisible();
    await expect(window1.getByRole("textbox", { name: "Label" })).toHaveValue("9am–12pm");
    await expect(window1.getByLabel("Start")).toHaveValue("09:00");
    await expect(window1.getByLabel("End")).toHaveValue("12:00");
    await expect(window1.getByRole("textbox", { name: "Room" })).toHaveValue("10");
    await expect(premiumOwn).toBeChecked();
    const premiumDays = delivery.getByRole("group", { name: "Days for the premium zone" });
    await expect(premiumDays.getByRole("checkbox", { name: "Saturday" })).toBeChecked();
    await expect(premiumDays.getByRole("checkbox", { name: "Monday" })).not.toBeChecked();
    await expect(delivery.getByRole("switch", { name: "Own days for the standard zone" })).not.toBeChecked();
    await screenshotOf(page, delivery, "test-results/screenshots/admin-settings-delivery-1440.png");

    // A window that ends before it starts: the server's message beside its End, every value kept, nothing saved.
    await delivery.getByRole("button", { name: "Add window" }).click();
    const window2 = delivery.getByRole("group", { name: "Window 2" });
    await window2.getByRole("textbox", { name: "Label" }).fill("Afternoon");
    await window2.getByLabel("Start").fill("12:00");
    await window2.getByLabel("End").fill("11:00");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(window2.getByText("Ends after it starts (12:00)")).toBeVisible();
    await expect(window2.getByLabel("End")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please correct the fields marked in red.")).toBeVisible();
    await expect(window2.getByLabel("End")).toHaveValue("11:00");
    expect((await getSettings(page)).delivery.slots).toHaveLength(1);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "Settings is wider than the phone").toBeLessThanOrEqual(0);
    await screenshotOf(page, delivery, "test-results/screenshots/admin-settings-delivery-390.png");
  } finally {
    await restoreDefaults(page, { ...before.kitchen, address: before.kitchen.address ?? null });
  }
});

test("staff see the settings read-only", async ({ staffPage: page }) => {
  await page.goto("/admin/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 2 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(page.getByText("Only the shop's owner can change these settings.")).toBeVisible();
  const fee = shopWide(page).getByRole("textbox", { name: "Shipping fee ($)" });
  await expect(fee).toHaveValue("10.00");
  await expect(fee).toBeDisabled();
  await expect(zone(page, 1).getByRole("textbox", { name: "Zone name" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save settings" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add zone" })).toHaveCount(0);
  // The server refuses a save from staff all the same.
  const refused = await page.request.post("/functions/v1/save-settings", {
    data: {},
  });
  expect(refused.status()).toBe(403);
});

test("the settings page and the code form at 390 and 1440 px", async ({ adminPage: page }) => {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, ready, name] of [
      ["/admin/settings", "Save settings", "settings"],
      ["/admin/discount-codes/new", "Create code", "discount-code-form"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("button", { name: ready })).toBeVisible({
        timeout: 20_000,
      });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} is wider than the screen at ${width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: `test-results/screenshots/admin-${name}-${width}.png`,
        fullPage: true,
      });
    }
  }
});

test("the owner makes an amount code with a minimum; the preview follows the sample cart", async ({ adminPage: page }) => {
  const code = `SAVE5-${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/admin/discount-codes/new");
  await page.getByRole("textbox", { name: "Code" }).fill(code);
  await page.getByRole("radiogroup", { name: "Kind" }).getByRole("radio", { name: "Amount off" }).check();
  await expect(page.getByRole("textbox", { name: "Percent off" })).toHaveCount(0);
  await page.getByRole("textbox", { name: "Amount off ($)" }).fill("5");
  await page.getByRole("textbox", { name: "Minimum subtotal ($)" }).fill("40");
  await page.getByRole("textbox", { name: "Description" }).fill("$5 off orders of $40 or more");

  // The sample: 4 Strawberry Bliss bars at $6.00 come to $24.00, short of the $40.00.
  const preview = page.getByRole("region", {
    name: "Preview on a sample cart",
  });
  await preview.getByRole("combobox", { name: "Sample product" }).selectOption({ label: "Strawberry Bliss" });
  await expect(preview.getByRole("textbox", { name: "Quantity" })).toHaveValue("4");
  await expect(preview.getByTestId("preview-subtotal")).toHaveText("$24.00", {
    timeout: 15_000,
  });
  await expect(preview.getByTestId("preview-discount")).toHaveText("$0.00");
  await expect(preview.getByTestId("preview-shipping")).toHaveText("$10.00");
  await expect(preview.getByTestId("preview-total")).toHaveText("$34.00");
  await expect(preview.getByTestId("preview-problem")).toContainText(`Spend $40.00 or more to use ${code}.`);

  // 7 bars: $42.00, the code takes $5.00 off; shipping still applies below $50.00.
  await preview.getByRole("textbox", { name: "Quantity" }).fill("7");
  await expect(preview.getByTestId("preview-subtotal")).toHaveText("$42.00");
  await expect(preview.getByTestId("preview-discount")).toHaveText("−$5.00");
  await expect(preview.getByTestId("preview-total")).toHaveText("$47.00");
  await expect(preview.getByTestId("preview-problem")).toHaveCount(0);
  await page.screenshot({
    path: "test-results/screenshots/admin-discount-code-preview-desktop.png",
    fullPage: true,
  });

  // Bites only: the bars in the sample no longer count towards it.
  await page.getByRole("combobox", { name: "Applies to" }).selectOption({ label: "Bites only" });
  await expect(preview.getByTestId("preview-discount")).toHaveText("$0.00");
  await expect(preview.getByTestId("preview-total")).toHaveText("$52.00");
  await expect(preview.getByTestId("preview-problem")).toBeVisible();
  await page.getByRole("combobox", { name: "Applies to" }).selectOption({ label: "All products" });
  await expect(preview.getByTestId("preview-discount")).toHaveText("−$5.00");

  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page.getByText(`${code} created.`)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: code })).toContainText("$5.00 off orders of $40.00+");

  // Opened again, the form holds the code's kind and figures.
  await page.getByRole("link", { name: code }).click();
  await expect(page.getByRole("radio", { name: "Amount off" })).toBeChecked();
  await expect(page.getByRole("textbox", { name: "Amount off ($)" })).toHaveValue("5.00");
  await expect(page.getByRole("textbox", { name: "Minimum subtotal ($)" })).toHaveValue("40.00");
});
