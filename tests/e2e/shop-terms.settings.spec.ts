import { expect, test } from "./fixtures";
import { ownerSettings, saveSettings } from "./settings-helpers";
import type { SettingsJson } from "../../app/models/settings.server";
import { fillCart, fillShipping, newEmail, westLa } from "./checkout-helpers";

/**
 * The shop's words and totals follow the owner's settings and codes
 * (decisions 052, 053), with no code change: the two owner requests of issue
 * 19, "free shipping over $60 in the extended zone" and "$5 off orders over
 * $40", end to end. A "settings" spec: it changes the shop's terms on the
 * shared server, so its project runs last, one spec at a time.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

let defaults: SettingsJson;
test.beforeAll(async ({ request }) => {
  defaults = await ownerSettings(request);
});
test.afterEach(async ({ request }) => {
  await ownerSettings(request);
  await saveSettings(request, defaults);
});

test("a new fee, threshold and radius are what the badge, the drawer, the tiles, the terms and the checkout say and charge", async ({ page, request }) => {
  await ownerSettings(request);
  await saveSettings(request, {
    ...defaults,
    shippingFee: 7.5,
    freeShippingThreshold: 60,
    minimumOrder: 25,
    zones: [...defaults.zones.slice(0, 2), { ...defaults.zones[2]!, upToMiles: 30 }],
  });

  await page.goto("/shop");
  await expect(page.getByText("Free shipping on orders over $60")).toBeVisible();
  await expect(page.getByText("A flat $7.50 below that. Orders start at $25.00, and we deliver up to 30 miles from our kitchen.")).toBeVisible();

  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 3 }]);
  await page.goto("/shop?cart=open");
  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer.getByTestId("cart-shipping")).toHaveText("+ $7.50 shipping");
  await expect(drawer.getByText("Minimum order of $25.00 required")).toBeVisible();

  await page.goto("/terms");
  await expect(page.getByText(/The minimum order is \$25\.00\. Shipping is a flat \$7\.50, free on orders of \$60\.00 or more/)).toBeVisible();
  await expect(page.getByText(/We deliver within 30 miles of our West LA kitchen/)).toBeVisible();

  await fillCart(page, [{ productId: "bites-variety", quantity: 4 }]);
  await page.goto("/checkout");
  await expect(page.getByText("We deliver within 30 miles of our West LA kitchen.")).toBeVisible();
  // $58: below the new $60, so shipping is charged.
  await expect(page.getByTestId("order-total")).toHaveText("$65.50");
  await page.screenshot({ path: "test-results/screenshots/checkout-owner-terms.png", fullPage: true });
});

test("free shipping over $60 in the extended zone, set in the admin: free at $58 nearby, $10.00 fifteen miles out", async ({ adminPage: page }) => {
  // The owner, in the admin: the extended zone (the second) gets its own free-shipping threshold.
  await page.goto("/admin/settings");
  const extended = page.getByRole("group", { name: "Zone 2" });
  await expect(extended.getByRole("textbox", { name: "Zone name" })).toHaveValue("extended", { timeout: 20_000 });
  await extended.getByRole("textbox", { name: /Free shipping from/ }).fill("60");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();

  // A customer.
  await fillCart(page, [
    { productId: "bites-variety", quantity: 4 },
    { productId: "bar-banana-pb", quantity: 3 },
  ]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("zone-threshold") });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText(/standard zone/i);
  await expect(page.getByTestId("order-total")).toHaveText("$58.00");

  await page.getByLabel(/ZIP code/).fill("00150");
  await page.getByRole("button", { name: /^Check (Delivery|Again)$/ }).click();
  await expect(page.getByTestId("delivery-result")).toContainText(/15\.0 miles away · Extended zone/i);
  await expect(page.getByTestId("order-total")).toHaveText("$68.00");
  await expect(page.getByText("Add $2.00 for free shipping")).toBeVisible();
});

test("$5 off orders over $40, made in the admin: below, the code is refused with the reason; from $40 it takes $5 off", async ({ adminPage: page }) => {
  // The owner, in the admin's code form.
  const code = `SAVE5-${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/admin/discount-codes/new");
  await page.getByRole("textbox", { name: "Code" }).fill(code);
  await page.getByRole("radiogroup", { name: "Kind" }).getByRole("radio", { name: "Amount off" }).check();
  await page.getByRole("textbox", { name: "Amount off ($)" }).fill("5");
  await page.getByRole("textbox", { name: "Minimum subtotal ($)" }).fill("40");
  await page.getByRole("textbox", { name: "Description" }).fill("$5 off orders of $40 or more");
  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page.getByText(`${code} created.`)).toBeVisible({ timeout: 15_000 });

  // A customer.

  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("save5") });
  await page.getByRole("textbox", { name: "Discount code" }).fill(code);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText(`Spend $40.00 or more to use ${code}.`).first()).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$40.00");

  await fillCart(page, [{ productId: "bites-variety", quantity: 1 }]);
  await page.reload();
  await page.getByRole("textbox", { name: "Discount code" }).fill(code);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
  // $40.00 − $5.00 + $10.00 shipping.
  await expect(page.getByTestId("order-total")).toHaveText("$45.00");
});
