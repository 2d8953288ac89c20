import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { TEST_CARDS, UNKNOWN_ZIP } from "../../mocks/test-scenarios";
import { fillCart, fillShipping, newEmail, westLa } from "./checkout-helpers";

/**
 * The testers' triggers of the README's table (mocks/test-scenarios.ts), as a
 * tester would use them: ZIP codes at each zone's edges, an unknown ZIP, a
 * failing geocoder, Stripe unavailable, and each test card.
 */

async function checkDelivery(page: Page, address: string, zipCode: string) {
  await page.getByLabel(/Street address/).fill(address);
  await page.getByLabel(/ZIP code/).fill(zipCode);
  // The check's own answer (not the draft's save, nor a refresh), not the result of the one before it still on the page.
  const answered = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URLSearchParams(response.request().postData() ?? "").get("intent") === "check-delivery",
  );
  await page.getByRole("button", { name: /^Check (Delivery|Again)$/ }).click();
  await answered;
  return page.getByTestId("delivery-result");
}

test("ZIP codes just inside and just outside every zone's edge, an unknown ZIP and a failing geocoder", async ({ page }) => {
  test.setTimeout(60_000);
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: newEmail("zones") });

  const expectations: [string, RegExp][] = [
    ["00099", /9\.9 miles away · Standard zone/i],
    ["00100", /10\.0 miles away · Standard zone/i],
    ["00101", /10\.1 miles away · Extended zone · minimum order \$50/i],
    ["00200", /20\.0 miles away · Extended zone/i],
    ["00201", /20\.1 miles away · Premium zone · minimum order \$100/i],
    ["00250", /25\.0 miles away · Premium zone/i],
  ];
  for (const [zip, text] of expectations) await expect(await checkDelivery(page, "1 Test St", zip)).toContainText(text);

  const outside = await checkDelivery(page, "1 Test St", "00251");
  await expect(outside).toContainText("You're 25.1 miles away, outside our 25-mile area.");
  // Outside the area Place Order is not the way on: the contact card is.
  await expect(page.getByRole("button", { name: "Place Order" })).toBeDisabled();
  await expect(page.getByTestId("undeliverable-hint")).toBeVisible();

  await expect(await checkDelivery(page, "1 Test St", UNKNOWN_ZIP)).toContainText("Could not determine location");
  // The geocoder fails or times out: the shop places the address at its ZIP's centre instead.
  await expect(await checkDelivery(page, "12 Geocoder Error Way", westLa.zipCode)).toContainText("We deliver to you!");
  await expect(await checkDelivery(page, "12 Geocoder Timeout Way", westLa.zipCode)).toContainText("We deliver to you!");
  // ... and with an unknown ZIP there is nothing to fall back on.
  await expect(await checkDelivery(page, "12 Geocoder Error Way", UNKNOWN_ZIP)).toContainText("Could not determine location");
});

test("Stripe unavailable: Checkout Error with everything kept; with another address the order goes through", async ({ page, context }) => {
  // The SDK tries Stripe twice, with a pause, before the shop gives up.
  test.setTimeout(60_000);
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: `tester-${Date.now()}+stripe-down@example.com` });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Checkout Error" })).toContainText("There was an error processing your order. Please try again.");
  await expect(page.getByLabel(/Street address/)).toHaveValue(westLa.address);

  await page.getByLabel(/^Email/).fill(newEmail("stripe-back"));
  await page.getByRole("button", { name: "Check Again" }).click();
  const paymentTab = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect((await paymentTab).getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
});

test("each failing test card says why on the payment page; the paying card then pays", async ({ page }) => {
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  const placed = await page.request.post("/functions/v1/simple-checkout", {
    data: { items: [{ product: { id: "bites-variety" }, quantity: 3 }], shipping: { ...westLa, email: newEmail("cards") }, discountCode: null },
  });
  const { url } = (await placed.json()) as { url: string };
  await page.goto(new URL(url).pathname);
  for (const [digits, card] of Object.entries(TEST_CARDS)) {
    if (!("message" in card)) continue;
    await page.getByLabel("Card number").fill(digits.replace(/(\d{4})(?=\d)/g, "$1 "));
    await page.getByRole("button", { name: "Pay $40.00" }).click();
    await expect(page.getByRole("alert")).toHaveText(card.message);
  }
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $40.00" }).click();
  await expect(page.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
});
