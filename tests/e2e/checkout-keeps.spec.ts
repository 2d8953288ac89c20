import { expect, test } from "./fixtures";
import { cancelOpenPayment, fillCart, fillShipping, newEmail, westLa } from "./checkout-helpers";

/**
 * Nothing typed at the checkout is lost: not to a refresh, nor to Cancel or
 * Return, nor to a second tab; and never put in a URL (decision 040).
 */

test("a refresh keeps every field typed, and what the page had checked", async ({ page }) => {
  const email = newEmail("refresh");
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  // The quiet save once typing stops: wait for the one that carries the last field typed (the phone, after the ZIP
  // code), as a person pausing would. A save sent while typing (the ZIP code in, the phone not yet) is not that one.
  const saved = page.waitForResponse((response) => {
    const sent = new URLSearchParams(response.request().postData() ?? "");
    return (
      new URL(response.url()).pathname === "/checkout/draft" &&
      response.status() === 204 &&
      sent.get("zipCode") === "90025" &&
      sent.get("phone") === "310 555 0100"
    );
  });
  await fillShipping(page, { ...westLa, email, phone: "310 555 0100" });
  await saved;
  await page.reload();
  await expect(page.getByLabel(/First name/)).toHaveValue(westLa.firstName);
  await expect(page.getByLabel(/^Email/)).toHaveValue(email);
  await expect(page.getByLabel(/Phone/)).toHaveValue("310 555 0100");
  await expect(page.getByLabel(/ZIP code/)).toHaveValue(westLa.zipCode);
  expect(page.url()).not.toContain("maya");

  await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await page.reload();
  await expect(page.getByLabel(/Street address/)).toHaveValue(westLa.address);
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await expect(page.getByText("WELCOME10 applied")).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$37.00");
  await expect(page.getByRole("button", { name: "Place Order" })).toBeEnabled();
});

test("reloading the checkout after Cancel on the payment page keeps the form", async ({ page, context }) => {
  const email = newEmail("cancel-reload");
  await fillCart(page, [{ productId: "bar-banana-pb", quantity: 5 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;
  await paymentTab.getByRole("link", { name: "Cancel and return to Chill PB" }).click();
  await cancelOpenPayment(paymentTab);
  await expect(paymentTab.getByRole("alert").filter({ hasText: "Checkout Cancelled" })).toBeVisible();
  await expect(paymentTab.getByLabel(/^Email/)).toHaveValue(email);

  await paymentTab.reload();
  await expect(paymentTab.getByLabel(/^Email/)).toHaveValue(email);
  await expect(paymentTab.getByLabel(/Last name/)).toHaveValue(westLa.lastName);
  await expect(paymentTab.getByTestId("delivery-result")).toContainText("We deliver to you!");
  await expect(paymentTab.getByText("5 × $6.00")).toBeVisible();
});

test("a second tab that finds its order waiting for payment says so; once paid, Return to checkout says it is paid", async ({ page, context }) => {
  const email = newEmail("two-tabs");
  await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
  await page.goto("/checkout");
  await fillShipping(page, { ...westLa, email });
  await page.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(page.getByTestId("delivery-result")).toContainText("We deliver to you!");
  // A second tab opened now finds the same form, checked.
  const second = await context.newPage();
  await second.goto("/checkout");
  await expect(second.getByLabel(/^Email/)).toHaveValue(email);
  await expect(second.getByTestId("delivery-result")).toContainText("We deliver to you!");

  const paymentTabPromise = context.waitForEvent("page");
  await page.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabPromise;

  await second.getByRole("button", { name: "Place Order" }).click();
  const waiting = second.getByTestId("payment-pending");
  await expect(waiting.getByRole("heading", { name: "Your order is waiting for payment" })).toBeVisible();
  await expect(waiting).toContainText("$40.00");
  await expect(waiting.getByRole("link", { name: "Continue to payment" })).toHaveAttribute("href", /\/mock-stripe\/pay\//);

  await paymentTab.getByLabel("Card number").fill("4242 4242 4242 4242");
  await paymentTab.getByRole("button", { name: "Pay $40.00" }).click();
  await expect(paymentTab.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();

  await page.getByTestId("payment-pending").getByRole("button", { name: "Return to checkout" }).click();
  await expect(page.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
});

test.describe("before the page is enhanced", () => {
  test.use({ awaitEnhanced: false });

  test("what was typed before the page was enhanced is kept by it: Apply is on for the email typed, and a refresh keeps the fields", async ({ page }) => {
    const email = newEmail("before-hydration");
    await fillCart(page, [{ productId: "bites-variety", quantity: 3 }]);
    // The page's scripts held back: the visitor types into the server's page before it is enhanced.
    let releaseScripts = () => {};
    const scriptsReleased = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route("**/build/**/*.js", async (route) => {
      await scriptsReleased;
      await route.fallback();
    });
    // Its load event waits for the scripts held back; the page is there once its document is parsed.
    await page.goto("/checkout", { waitUntil: "domcontentloaded" });
    await fillShipping(page, { ...westLa, email });
    await page.getByRole("textbox", { name: "Discount code" }).fill("WELCOME10");
    expect(await page.locator("html[data-enhanced]").count()).toBe(0);
    const saved = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/checkout/draft" && new URLSearchParams(response.request().postData() ?? "").get("email") === email,
    );
    releaseScripts();
    await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
    await expect(page.getByRole("button", { name: "Apply" })).toBeEnabled();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Discount Applied!" })).toBeVisible();
    // The enhanced page saved what had been typed before it, with nothing typed since.
    await saved;
    await page.unrouteAll();
    await page.reload();
    await expect(page.getByLabel(/^Email/)).toHaveValue(email);
    await expect(page.getByLabel(/Street address/)).toHaveValue(westLa.address);
  });
});
