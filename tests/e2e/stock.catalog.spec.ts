import { test, expect } from "./fixtures";
import { newEmail, westLa } from "./checkout-helpers";

/**
 * Stock counts (issue 23, item 4; decision 063), as the owner and the shop see
 * them: the owner sets how many are left in the admin, the shop says "Only N
 * left" at the threshold, 30 customers checking out at once buy exactly what
 * is left, and the shop then says Sold out.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

const PRODUCT = { id: "bar-banana-pb", name: "Banana Blast" };

test("30 checkouts at once for the 10 left sell exactly 10; the shop says Only N left, then Sold out", async ({ adminPage: page, browser }) => {
  await page.goto(`/admin/products/${PRODUCT.id}`);
  await expect(page.getByRole("heading", { name: PRODUCT.name })).toBeVisible({ timeout: 20_000 });
  try {
    await page.getByLabel("Stock (items left)").fill("10");
    await page.getByLabel("Low-stock threshold").fill("10");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(`${PRODUCT.name} saved.`)).toBeVisible();
    await expect(page.getByText("10 left", { exact: true })).toBeVisible();
    for (const [name, width] of [
      ["desktop", 1440],
      ["phone", 390],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `test-results/screenshots/admin-product-stock-${name}.png`, fullPage: true });
    }

    const shopper = await browser.newPage();
    await shopper.goto("/shop?category=bars");
    await expect(shopper.getByRole("article", { name: PRODUCT.name }).getByText("Only 10 left")).toBeVisible();
    await shopper.getByRole("article", { name: PRODUCT.name }).screenshot({ path: "test-results/screenshots/shop-only-left-card.png" });

    // Thirty customers press Place Order at the same moment: one of Banana Blast each (and two cartons of bites, the $20 minimum).
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        page.request.post("/functions/v1/simple-checkout", {
          data: {
            items: [
              { product: { id: PRODUCT.id }, quantity: 1 },
              { product: { id: "bites-banana" }, quantity: 2 },
            ],
            shipping: { ...westLa, email: newEmail(`stock-${index}`) },
            discountCode: null,
          },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status() === 200)).toHaveLength(10);
    // The others: refused when their hold failed (409), or once the shop says sold out, before anything is written (400).
    for (const refused of answers.filter((answer) => answer.status() !== 200)) {
      expect([400, 409]).toContain(refused.status());
      expect(((await refused.json()) as { error: string }).error).toBe(`${PRODUCT.name} is sold out. Please remove it from your cart.`);
    }

    await shopper.goto("/shop?category=bars");
    await expect(shopper.getByRole("button", { name: `Sold out, ${PRODUCT.name}` })).toBeDisabled();
    await shopper.close();
    await page.reload();
    await expect(page.getByText("Sold out", { exact: true })).toBeVisible();
  } finally {
    const restocked = await page.request.post("/functions/v1/update-product", { data: { productId: PRODUCT.id, stock: null, lowStockThreshold: 5 } });
    expect(restocked.ok()).toBe(true);
  }
});
