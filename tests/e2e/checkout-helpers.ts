import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Puts products in the cart with plain form posts (works with and without JavaScript). */
export async function fillCart(page: Page, items: { productId: string; quantity: number }[]) {
  for (const item of items) {
    const response = await page.request.post("/cart", {
      form: { intent: "add", productId: item.productId, quantity: String(item.quantity) },
      headers: { Accept: "application/json" },
    });
    expect(response.ok()).toBe(true);
  }
}

export const westLa = {
  firstName: "Maya",
  lastName: "Rivera",
  email: "maya.rivera@example.com",
  address: "11500 W Olympic Blvd",
  city: "Los Angeles",
  state: "CA",
  zipCode: "90025",
};

export async function fillShipping(page: Page, shipping: Record<string, string>) {
  const labels: Record<string, RegExp> = {
    firstName: /First name/,
    lastName: /Last name/,
    email: /^Email/,
    phone: /Phone/,
    address: /Street address/,
    city: /City/,
    state: /State/,
    zipCode: /ZIP code/,
  };
  for (const [field, value] of Object.entries(shipping)) {
    await page.getByLabel(labels[field]!).fill(value);
  }
}

/** A new address each run, so first-order codes apply. */
export const newEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * Gives `email` a paid order through the shop's own endpoints (simple-checkout,
 * then the demo payment page with the test card), as a returning customer has.
 */
export async function payOrderFor(request: APIRequestContext, email: string) {
  const placed = await request.post("/functions/v1/simple-checkout", {
    data: { items: [{ product: { id: "bites-variety" }, quantity: 3 }], shipping: { ...westLa, email }, discountCode: null },
  });
  expect(placed.ok()).toBe(true);
  const { url } = (await placed.json()) as { url: string };
  const paid = await request.post(new URL(url).pathname, { form: { card: "4242 4242 4242 4242" } });
  expect(paid.ok()).toBe(true);
}

/**
 * Back at the checkout after Cancel on the payment page: the spec's notice,
 * the cart and the filled form (locked), and the offer to cancel the payment,
 * which is still open until 'Cancel payment' is pressed; pressing it unlocks
 * the form (with JavaScript or without: it is a form post).
 */
export async function cancelOpenPayment(page: Page) {
  await expect(page).toHaveURL(/\/checkout\?cancelled=true/);
  await expect(page.getByText("Checkout Cancelled")).toBeVisible();
  const offer = page.getByTestId("open-payment");
  await expect(offer.getByRole("heading", { name: "Your payment is still open" })).toBeVisible();
  await expect(offer.getByRole("link", { name: "Return to payment" })).toHaveAttribute("href", /\/mock-stripe\/pay\//);
  await expect(page.getByLabel(/^Email/)).toBeDisabled();
  await page.screenshot({ path: `test-results/screenshots/checkout-open-payment-offer-${page.viewportSize()?.width ?? 0}.png`, fullPage: true });
  await offer.getByRole("button", { name: "Cancel payment" }).click();
  await expect(page.getByTestId("open-payment")).toHaveCount(0);
  await expect(page.getByLabel(/^Email/)).toBeEnabled();
}
