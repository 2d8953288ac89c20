import { expect, test } from "./fixtures";
import type { Browser } from "@playwright/test";
import { changeCatalog } from "../../app/models/catalog.server";
import { createPrismaClient } from "../../app/utils/db.server";
import { scratchDatabase, startShop, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * A sold-out product, with JavaScript on and off. Stock is changed from this
 * process, as another instance's write would be (the owner's screen is
 * covered by owner-catalogue.catalog.spec.ts), on a server and a database of
 * this file's own: selling out a product on the shared e2e server would break
 * the other files' tests that add it to a cart meanwhile.
 */

// One server per parallel worker, on ports of this file's own beside the main e2e server's.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 450 + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const ORIGIN = `http://localhost:${PORT}`;
const PRODUCT = { id: "bar-banana-pb", name: "Banana Blast" };
let database: ScratchDatabase;
let server: ShopProcess;
let db: ReturnType<typeof createPrismaClient>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  database = await scratchDatabase("chillpb_e2e_stock");
  db = createPrismaClient(database.url);
  server = await startShop(PORT, { ...process.env, DATABASE_URL: database.url, MOCKS: "true", RATE_LIMIT_PER_MINUTE: "1000" });
});

test.afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await database?.drop();
});

/**
 * Through changeCatalog, as the owner's edits are. The write comes from this
 * process, not the server's, so the server's cached catalogue and pages follow
 * it within about a second (decision 016): wait until its product page (the
 * one a visitor without cookies gets, cached or not) says so.
 */
async function setStock(inStock: boolean) {
  await changeCatalog((tx) => tx.product.update({ where: { id: PRODUCT.id }, data: { inStock } }), db);
  const availability = async () => {
    const html = await (await fetch(`${ORIGIN}/shop/${PRODUCT.id}`)).text();
    return html.includes("https://schema.org/InStock") ? "in stock" : "sold out";
  };
  await expect.poll(availability, { timeout: 10_000 }).toBe(inStock ? "in stock" : "sold out");
}

async function openProduct(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL: ORIGIN, javaScriptEnabled });
  const page = await context.newPage();
  const response = await page.goto(`/shop/${PRODUCT.id}`);
  expect(response?.status()).toBe(200);
  return { page, context };
}

for (const javaScriptEnabled of [true, false]) {
  test(`a sold-out product says Sold out and cannot be added (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser }) => {
    await setStock(false);
    try {
      const { page, context } = await openProduct(browser, javaScriptEnabled);
      const main = page.getByRole("main");
      await expect(main.getByRole("button", { name: "Sold out" })).toBeDisabled();
      await expect(main.getByRole("button", { name: /Add to cart/ })).toHaveCount(0);
      await expect(main.getByText("Sold out", { exact: true }).first()).toBeVisible();
      const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
      expect(data.offers.availability).toBe("https://schema.org/OutOfStock");
      await page.screenshot({ path: `test-results/screenshots/product-sold-out-${javaScriptEnabled ? "js" : "no-js"}.png` });

      // The shop's card agrees, and the cart refuses it even when posted by hand.
      await page.goto("/shop?category=bars");
      await expect(page.getByRole("article", { name: PRODUCT.name }).getByRole("button")).toBeDisabled();
      const refused = await page.request.post("/cart", {
        form: { intent: "add", productId: PRODUCT.id, quantity: "1" },
        headers: { Accept: "application/json" },
      });
      expect(refused.status()).toBe(400);
      await context.close();
    } finally {
      await setStock(true);
    }

    // Back in stock: the page sells it again.
    const { page, context } = await openProduct(browser, javaScriptEnabled);
    await page.getByRole("button", { name: `Add to cart, ${PRODUCT.name}` }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await context.close();
  });
}
