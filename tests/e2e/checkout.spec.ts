import { expect, test } from "./fixtures";
import { pagePath } from "./request-failures";
import type { Page, Request } from "@playwright/test";
import { cancelOpenPayment, fillCart, fillShipping, westLa } from "./checkout-helpers";

test("a full purchase: checkout, delivery check, WELCOME10, payment in a new tab, Order Confirmed", async ({ page, context }) => {
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$40.00");

  await fillShipping(page, { ...westLa, email: `first-${Date.now()}@example.com` });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await expect(page.getByTestId("delivery-result")).toContainText(/\d+\.\d miles away · Standard zone/i);

  await page.getByRole("textbox", { name: "Discount code" }).fill("  welcome10 ");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Discount Applied!" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Discount code" })).toBeDisabled();
  await expect(page.getByRole("textbox", { name: "Discount code" })).toHaveValue("WELCOME10");
  await expect(page.getByTestId("order-total")).toHaveText("$37.00");

  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;

  // This tab says where payment is; the cart waits with the order.
  await expect(page.getByRole("heading", { name: "Payment continues in the new tab" })).toBeVisible();

  await expect(paymentTab.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
  await expect(paymentTab.getByText("$37.00").first()).toBeVisible();
  await paymentTab.getByLabel("Card number").fill("4242 4242 4242 4242");
  await paymentTab.getByRole("button", { name: /Pay \$37\.00/ }).click();

  await expect(paymentTab.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
  await expect(paymentTab.getByText("Payment Confirmed!")).toBeVisible();
  await expect(paymentTab.getByText(/^first-\d+@example\.com$/)).toBeVisible();
  await expect(paymentTab.getByText("$37.00").first()).toBeVisible();
  await expect(paymentTab.getByText("3 × Chocolate Mini Bites")).toBeVisible();
  await paymentTab.screenshot({ path: "test-results/screenshots/order-confirmed-desktop.png", fullPage: true });

  await page.goto("/shop");
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("submitting before the delivery check performs the check instead of placing the order", async ({ page, context }) => {
  await fillCart(page, [{ productId: "bar-banana-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, westLa);
  let opened = false;
  context.on("page", () => (opened = true));
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await expect(page.getByRole("button", { name: "Place Order" })).toBeVisible();
  expect(opened).toBe(false);
  await expect(page).toHaveURL(/\/checkout$/);
});

test("form errors keep the values and name the fields", async ({ page }) => {
  await fillCart(page, [{ productId: "bar-banana-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { firstName: "Maya", email: "not-an-email", city: "Los Angeles" });
  await page.getByRole("button", { name: "Check Delivery & Continue" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Missing Information" })).toContainText("Please fill in all required fields.");
  await expect(page.getByLabel(/First name/)).toHaveValue("Maya");
  await expect(page.getByLabel(/^Email/)).toHaveValue("not-an-email");
  await expect(page.getByLabel(/Last name/)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel(/Last name/)).toBeFocused();

  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Complete Address Required" })).toBeVisible();
});

test("a name typed past its limit says so as it is typed, keeps every character, and goes once it fits", async ({ page }) => {
  await fillCart(page, [{ productId: "bar-banana-pb", quantity: 4 }]);
  await page.goto("/checkout");
  const firstName = page.getByLabel(/First name/);
  // The 126 characters: nothing was said until the order was submitted.
  const long = `Maya ${"Lopez".repeat(24)}a`;
  await firstName.pressSequentially(long.slice(0, 100));
  await expect(page.locator("#firstName-error")).toHaveText("");
  await firstName.pressSequentially(long.slice(100));
  await expect(page.locator("#firstName-error")).toHaveText("At most 100 characters: this is 126");
  await expect(page.locator("#firstName-error")).toHaveAttribute("aria-live", "polite");
  await expect(firstName).toHaveValue(long);
  await expect(firstName).toHaveAttribute("aria-invalid", "true");
  await expect(firstName).toHaveAccessibleDescription("At most 100 characters: this is 126");
  for (let i = 0; i < 26; i += 1) await firstName.press("Backspace");
  await expect(page.locator("#firstName-error")).toHaveText("");
  await expect(firstName).not.toHaveAttribute("aria-invalid", "true");
});

test("an address outside the area shows the contact card with a prefilled email", async ({ page }) => {
  await fillCart(page, [{ productId: "bites-banana", quantity: 2 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, address: "1 Truxtun Ave", city: "Bakersfield", zipCode: "93301" });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Outside Delivery Area" })).toContainText("You're outside our 25-mile delivery area.");
  const card = page.getByTestId("delivery-result");
  await expect(card).toContainText("hello@chillpb.example");
  await expect(card).toContainText("(310) 555-0142");
  const sendEmail = card.getByRole("link", { name: "Send Email" });
  await expect(sendEmail).toHaveAttribute("href", /^mailto:hello@chillpb\.example\?subject=Delivery%20request&body=.*Bakersfield/);
  await page.screenshot({ path: "test-results/screenshots/checkout-outside-desktop.png", fullPage: true });

  // Place Order is off and says why; placing the order anyway (Enter in a
  // field submits the form) is refused on the server, with a toast of its own.
  await expect(page.getByRole("button", { name: "Place Order" })).toBeDisabled();
  await expect(page.getByTestId("undeliverable-hint")).toContainText("We can't deliver to this address yet");
  for (const dismiss of await page.getByRole("button", { name: "Dismiss" }).all()) await dismiss.click();
  await expect(page.getByRole("alert").filter({ hasText: "Outside Delivery Area" })).toHaveCount(0);
  await page.getByLabel(/^Email/).press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Outside Delivery Area" })).toBeVisible();
});

test("after an address outside the area, fixing it turns the button back on: it checks the new address, as before the first check, and then places the order", async ({
  page,
  context,
}) => {
  await fillCart(page, [{ productId: "bites-banana", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, address: "1 Truxtun Ave", city: "Bakersfield", zipCode: "93301" });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("undeliverable-hint")).toBeVisible();
  await expect(page.getByRole("button", { name: "Place Order" })).toBeDisabled();

  // The customer corrects the address: the old answer no longer holds, so the button checks the new one.
  await page.getByLabel(/Street address/).fill(westLa.address);
  await page.getByLabel(/City/).fill(westLa.city);
  await page.getByLabel(/ZIP code/).fill(westLa.zipCode);
  const button = page.getByRole("button", { name: "Check Delivery & Continue" });
  await expect(button).toBeEnabled();
  await expect(page.getByTestId("undeliverable-hint")).toHaveCount(0);
  await button.click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  const paymentTab = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect((await paymentTab).getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
});

test("the test address shows the test-card hint; a declined card and a cancel keep the cart", async ({ page, context }) => {
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 4 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: "admin-test@chillpb.example" });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("test-card-hint")).toContainText("4242 4242 4242 4242");

  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;
  await paymentTab.getByLabel("Card number").fill("4000 0000 0000 0002");
  await paymentTab.getByRole("button", { name: /Pay/ }).click();
  await expect(paymentTab.getByRole("alert")).toHaveText("Your card was declined.");

  await paymentTab.getByRole("link", { name: "Cancel and return to Chill PB" }).click();
  await expect(paymentTab).toHaveURL(/\/checkout\?cancelled=true/);
  await expect(paymentTab.getByRole("alert").filter({ hasText: "Checkout Cancelled" })).toContainText(
    "Your order was not completed. Your cart has been saved.",
  );
  await expect(paymentTab.getByText("4 × $6.00")).toBeVisible();
  await cancelOpenPayment(paymentTab);
  await expect(paymentTab.getByText("4 × $6.00")).toBeVisible();
  await expect(paymentTab.getByRole("button", { name: "Place Order" })).toBeEnabled();
});

test("an empty cart is sent back to the shop", async ({ page }) => {
  await page.goto("/checkout");
  await expect(page).toHaveURL(/\/shop$/);
});

test("an unknown payment session shows Order Not Found", async ({ page }) => {
  await page.goto("/order-success?session_id=cs_test_unknown");
  await expect(page.getByRole("heading", { name: "Order Not Found" })).toBeVisible();
  await page.getByRole("link", { name: "Continue Shopping" }).click();
  await expect(page).toHaveURL(/\/shop$/);
});

async function checkedWestLa(page: Page) {
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email: `recheck-${Date.now()}@example.com` });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
}

const intentOf = (request: Request) => new URLSearchParams(request.postData() ?? "").get("intent");

test("a changed ZIP code and an immediate Check Again: one post, the check's, which carries the new ZIP code", async ({ page }) => {
  await checkedWestLa(page);
  const intents: (string | null)[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && pagePath(new URL(request.url())) === "/checkout") intents.push(intentOf(request));
  });
  await page.getByLabel(/ZIP code/).fill("00201");
  const answered = page.waitForResponse((response) => intentOf(response.request()) === "check-delivery");
  // A person's press: the button goes down (taking the focus from the ZIP field) and comes up a moment later.
  await page.getByRole("button", { name: "Check Again" }).hover();
  await page.mouse.down();
  await page.waitForTimeout(150);
  await page.mouse.up();
  await answered;
  await expect(page.getByTestId("delivery-result")).toContainText(/20\.1 miles away · Premium zone/i);
  // Leaving the field for the button sent no refresh to race the press.
  expect(intents).toEqual(["check-delivery"]);
});

test("a press while the refresh a changed field sent is under way is not lost", async ({ page }) => {
  await checkedWestLa(page);
  // The refresh that leaving a changed field sends is slow here, so the press comes while it is under way.
  await page.route("**/checkout.data*", async (route) => {
    if (intentOf(route.request()) === "refresh") await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue().catch(() => undefined);
  });
  await page.getByLabel(/ZIP code/).fill("00201");
  const refreshing = page.waitForRequest((request) => intentOf(request) === "refresh");
  // Away from the field, not to a button: the summary may change, so the page asks the server again.
  await page.getByRole("heading", { name: "Delivery Check" }).click();
  await refreshing;
  const checked = page.waitForRequest((request) => intentOf(request) === "check-delivery");
  // A person's press: down, and up a moment later, while the refresh is still out.
  await page.getByRole("button", { name: /^Check (Delivery|Again)$/ }).hover();
  await page.mouse.down();
  await page.waitForTimeout(150);
  await page.mouse.up();
  await checked;
  await expect(page.getByTestId("delivery-result")).toContainText(/20\.1 miles away · Premium zone/i);
});

test("at 390 px a cart below the minimum opens the folded summary: the reason Place Order is off is in view", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // One $6 bar: below the $20 minimum.
  await fillCart(page, [{ productId: "bar-chocolate-pb", quantity: 1 }]);
  await page.goto("/checkout");
  const notice = page.getByTestId("summary-notice");
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("Minimum order amount is $20.00.");
  await expect(page.getByRole("button", { name: /Check Delivery & Continue|Place Order/ })).toBeDisabled();
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/checkout-below-minimum-390.png" });
});
