import type { Route } from "@playwright/test";
import { pagePath } from "./request-failures";
import { test, expect, signInDemoOwner } from "./fixtures";
import { fillCart } from "./checkout-helpers";

/**
 * The cart drawer shows the server's figures (decision 051). The repro:
 * four Banana Blast in the cart, the owner marks it sold out; the drawer
 * said "Total $24.00", "Add $26.00 for free shipping" with Checkout enabled,
 * while the checkout priced nothing. Now the sold-out line is in no figure,
 * and Checkout is disabled with the reason. With JavaScript a change shows
 * its quantity at once and "Updating…" for the figures until the server
 * answers. A "catalog" spec: it sells a flavour out on the shared server.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

const BANANA = { id: "bar-banana-pb", name: "Banana Blast" };
const BITES = { id: "bites-variety", name: "Chocolate Mini Bites" };

test("a sold-out line is out of the drawer's figures and blocks Checkout with the reason; a change says it is updating", async ({ page, request }) => {
  const owner = await signInDemoOwner(request);
  expect(owner.ok()).toBe(true);
  await fillCart(page, [{ productId: BANANA.id, quantity: 4 }]);
  await page.goto("/shop?cart=open");
  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer.getByTestId("cart-total")).toHaveText("$24.00");
  await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $26.00 for free shipping");
  await expect(drawer.getByRole("link", { name: "Checkout" })).toBeVisible();

  const soldOut = await request.post("/functions/v1/update-product", { data: { productId: BANANA.id, inStock: false } });
  expect(soldOut.ok()).toBe(true);
  try {
    await page.reload();
    const banana = drawer.getByRole("listitem").filter({ hasText: BANANA.name });
    await expect(banana).toContainText("Sold out: remove it to check out");
    // The checkout's figures: subtotal $0.00, shipping $10.00.
    await expect(drawer.getByTestId("cart-total")).toHaveText("$0.00");
    await expect(drawer.getByTestId("cart-shipping")).toHaveText("+ $10.00 shipping");
    await expect(drawer.getByTestId("free-shipping-hint")).toHaveCount(0);
    const checkout = drawer.getByRole("button", { name: "Checkout" });
    await expect(checkout).toBeDisabled();
    await expect(checkout).toHaveAccessibleDescription("Remove sold-out items to check out");
    await expect(drawer.getByRole("link", { name: "Checkout" })).toHaveCount(0);

    await fillCart(page, [{ productId: BITES.id, quantity: 3 }]);
    await page.reload();
    await expect(drawer.getByTestId("cart-total")).toHaveText("$30.00");
    await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $20.00 for free shipping");
    await expect(checkout).toHaveAccessibleDescription("Remove sold-out items to check out");
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({ path: `test-results/screenshots/cart-drawer-sold-out-${width}.png` });
    }

    // The drawer's figures are the checkout's: $30.00 of bites and $10.00 shipping.
    await page.goto("/checkout");
    await expect(page.getByTestId("order-total")).toHaveText("$40.00");
    await page.goto("/shop?cart=open");

    // A change in flight: the quantity at once, the figures "Updating…" (never a guess), then the server's.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const cartPosts = (url: URL) => pagePath(url) === "/cart";
    await page.route(cartPosts, async (route: Route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await drawer.getByRole("button", { name: `Add one more ${BITES.name}` }).click();
    await expect(drawer.getByRole("status", { name: `${BITES.name} quantity` })).toHaveText("4");
    await expect(drawer.getByTestId("cart-total")).toHaveText("Updating…");
    await expect(drawer.locator(".drawer__figures")).toHaveAttribute("aria-busy", "true");
    await expect(drawer.getByRole("button", { name: "Checkout" })).toBeDisabled();
    release();
    await expect(drawer.getByTestId("cart-total")).toHaveText("$40.00");
    await expect(drawer.locator(".drawer__figures")).toHaveAttribute("aria-busy", "false");
    await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $10.00 for free shipping");
    await page.unroute(cartPosts);

    // Removing the sold-out line lets the cart go to the checkout.
    await banana.getByRole("button", { name: `Remove ${BANANA.name} from cart` }).click();
    await expect(drawer.getByRole("link", { name: "Checkout" })).toHaveAttribute("href", "/checkout");
    await expect(drawer.getByTestId("cart-total")).toHaveText("$40.00");
  } finally {
    const restocked = await request.post("/functions/v1/update-product", { data: { productId: BANANA.id, inStock: true } });
    expect(restocked.ok()).toBe(true);
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the drawer rendered by the server shows the same figures and the disabled Checkout with its reason", async ({ page, request }) => {
    const owner = await signInDemoOwner(request);
    expect(owner.ok()).toBe(true);
    await fillCart(page, [
      { productId: BANANA.id, quantity: 4 },
      { productId: BITES.id, quantity: 3 },
    ]);
    const soldOut = await request.post("/functions/v1/update-product", { data: { productId: BANANA.id, inStock: false } });
    expect(soldOut.ok()).toBe(true);
    try {
      await page.goto("/shop?cart=open");
      const drawer = page.getByRole("dialog", { name: "Your Cart" });
      await expect(drawer.getByRole("listitem").filter({ hasText: BANANA.name })).toContainText("Sold out: remove it to check out");
      await expect(drawer.getByTestId("cart-total")).toHaveText("$30.00");
      await expect(drawer.getByTestId("cart-shipping")).toHaveText("+ $10.00 shipping");
      await expect(drawer.getByTestId("free-shipping-hint")).toHaveText("Add $20.00 for free shipping");
      const checkout = drawer.getByRole("button", { name: "Checkout" });
      await expect(checkout).toBeDisabled();
      await expect(checkout).toHaveAccessibleDescription("Remove sold-out items to check out");

      // Removing the line is a plain form post; the page comes back with the server's new figures.
      await drawer.getByRole("button", { name: `Remove ${BANANA.name} from cart` }).click();
      await expect(drawer.getByRole("link", { name: "Checkout" })).toHaveAttribute("href", "/checkout");
      await expect(drawer.getByTestId("cart-total")).toHaveText("$30.00");
    } finally {
      const restocked = await request.post("/functions/v1/update-product", { data: { productId: BANANA.id, inStock: true } });
      expect(restocked.ok()).toBe(true);
    }
  });
});
