import { test, expect, signInDemoOwner } from "./fixtures";
import { fillCart } from "./checkout-helpers";

/**
 * A sold-out line in the cart drawer may shrink and be removed, never grow:
 * its + button is disabled and says why (the line's "Sold out" text), as
 * /cart itself refuses the increase. A "catalog" spec: it sells a flavour out
 * on the shared server for a moment.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

const BAR = { id: "bar-strawberry-pb", name: "Strawberry Bliss" };

test("the drawer's + is disabled on a sold-out line, with its reason; − and remove still work", async ({ page, request }) => {
  const owner = await signInDemoOwner(request);
  expect(owner.ok()).toBe(true);
  await fillCart(page, [
    { productId: BAR.id, quantity: 3 },
    { productId: "bites-variety", quantity: 2 },
  ]);
  const soldOut = await request.post("/functions/v1/update-product", { data: { productId: BAR.id, inStock: false } });
  expect(soldOut.ok()).toBe(true);
  try {
    await page.goto("/shop?cart=open");
    const drawer = page.getByRole("dialog", { name: "Your Cart" });
    const line = drawer.getByRole("listitem").filter({ hasText: BAR.name });
    await expect(line).toContainText("Sold out: remove it to check out");

    const more = line.getByRole("button", { name: `Add one more ${BAR.name}` });
    await expect(more).toBeDisabled();
    await expect(more).toHaveAccessibleDescription("Sold out: remove it to check out");
    // Lines still in stock are unaffected.
    await expect(drawer.getByRole("button", { name: "Add one more Chocolate Mini Bites" })).toBeEnabled();

    const quantity = line.getByRole("status", { name: `${BAR.name} quantity` });
    await expect(quantity).toHaveText("3");
    await line.getByRole("button", { name: `Remove one ${BAR.name}` }).click();
    await expect(quantity).toHaveText("2");
    await expect(more).toBeDisabled();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "test-results/screenshots/cart-sold-out-line-phone.png" });

    await line.getByRole("button", { name: `Remove ${BAR.name} from cart` }).click();
    await expect(drawer.getByRole("listitem").filter({ hasText: BAR.name })).toHaveCount(0);
    // The line leaves the drawer at once; the shop's own figures (two Chocolate Mini Bites) say it has taken the change,
    // and only then may the page reload (a reload cuts a request in flight off).
    await expect(drawer.getByTestId("cart-total")).toHaveText("$20.00");
    await page.reload();
    await expect(page.getByRole("dialog", { name: "Your Cart" }).getByRole("listitem")).toHaveCount(1);
  } finally {
    const restocked = await request.post("/functions/v1/update-product", { data: { productId: BAR.id, inStock: true } });
    expect(restocked.ok()).toBe(true);
  }
});
