import { test, expect } from "./fixtures";
import { fillCart, fillShipping, westLa } from "./checkout-helpers";

/**
 * The owner's Products and Discount codes pages, and what they change on the
 * shop. The "catalog" project runs these after every other spec, one after
 * another: a sold-out flavour is shared by the whole server for a moment.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

const FLAVOUR = { id: "bites-strawberry", name: "Organic Strawberry Bites" };

test("the owner marks a flavour sold out; the shop and the landing page show it; the history records it", async ({ adminPage: page, browser }) => {
  await page.goto("/admin/products");
  await expect(page.getByRole("heading", { name: "Products" })).toBeVisible();
  const stock = page.getByRole("switch", { name: `${FLAVOUR.name} in stock` });
  // The first admin page of a fresh server on a busy machine can take a while.
  await expect(stock).toBeChecked({ timeout: 20_000 });
  try {
    await stock.click({ force: true });
    await expect(page.getByText(`${FLAVOUR.name} is now sold out.`)).toBeVisible();
    await expect(stock).not.toBeChecked();

    const shopper = await browser.newPage();
    await shopper.goto("/shop?category=bites");
    const soldOut = shopper.getByRole("button", { name: `Sold out, ${FLAVOUR.name}` });
    await expect(soldOut).toBeVisible();
    await expect(soldOut).toBeDisabled();
    await expect(soldOut).toHaveText("Sold out");
    await shopper.getByRole("article", { name: FLAVOUR.name }).screenshot({ path: "test-results/screenshots/shop-sold-out-card.png" });
    await shopper.goto("/");
    await expect(shopper.locator("#products li", { hasText: FLAVOUR.name }).getByText("Sold out")).toBeVisible();
    await shopper.close();

    // The change is in the product's history.
    await page.getByRole("link", { name: FLAVOUR.name }).click();
    await expect(page.getByRole("heading", { name: "Change history" })).toBeVisible();
    await expect(page.getByText("Stock: in stock → sold out")).toBeVisible();
  } finally {
    const restocked = await page.request.post("/functions/v1/update-product", { data: { productId: FLAVOUR.id, inStock: true } });
    expect(restocked.ok()).toBe(true);
  }
});

test("the owner edits a price and sees the server's field errors", async ({ adminPage: page }) => {
  await page.goto("/admin/products/bar-chocolate-pb");
  const price = page.getByRole("textbox", { name: "Price (dollars)" });
  await expect(price).toHaveValue("6.00");
  await price.fill("6.005");
  await page.getByRole("textbox", { name: "Name" }).fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Price can have at most 2 decimals")).toBeVisible();
  await expect(page.getByText("Name cannot be empty")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/admin-product-errors-desktop.png", fullPage: true });

  await page.getByRole("textbox", { name: "Name" }).fill("Chocolate Crunch");
  await price.fill("6.50");
  await page.getByRole("button", { name: "Save changes" }).click();
  try {
    await expect(page.getByText("Chocolate Crunch saved.")).toBeVisible();
    await expect(page.getByText("Price: $6.00 → $6.50")).toBeVisible();
  } finally {
    const restored = await page.request.post("/functions/v1/update-product", { data: { productId: "bar-chocolate-pb", price: 6 } });
    expect(restored.ok()).toBe(true);
  }
});

test("the owner creates a code, a customer pays an order with it, and the list counts the use", async ({ adminPage: page, browser }) => {
  const code = `E2E-${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/admin/discount-codes");
  await page.getByRole("link", { name: "New code" }).click();
  await page.getByRole("textbox", { name: "Code" }).fill(code.toLowerCase());
  await page.getByRole("textbox", { name: "Percent off" }).fill("150");
  await page.getByRole("textbox", { name: "Description" }).fill("20% off for the e2e test");
  await page.getByRole("textbox", { name: "Usage limit" }).fill("3");
  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page.getByText("Percent off must be between 1 and 100")).toBeVisible();
  await page.getByRole("textbox", { name: "Percent off" }).fill("20");
  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page.getByText(`${code} created.`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: code });
  await expect(row).toContainText("20%");
  await expect(row).toContainText("0 / 3");
  await page.screenshot({ path: "test-results/screenshots/admin-discount-codes-desktop.png", fullPage: true });

  const customer = await browser.newPage();
  await fillCart(customer, [{ productId: "bites-variety", quantity: 3 }]);
  await customer.goto("/checkout");
  await expect(customer.getByTestId("order-total")).toHaveText("$40.00");
  await fillShipping(customer, { ...westLa, email: `code-${Date.now()}@example.com` });
  await customer.getByRole("textbox", { name: "Discount code" }).fill(code.toLowerCase());
  await customer.getByRole("button", { name: "Apply" }).click();
  await expect(customer.getByRole("status").filter({ hasText: "Discount Applied!" })).toBeVisible();
  // $30.00 − 20% + $10.00 shipping
  await expect(customer.getByTestId("order-total")).toHaveText("$34.00");
  await expect(customer.getByText(`Discount (${code})`)).toBeVisible();

  // The customer places the order and pays it on the payment stand-in's page.
  await customer.getByRole("button", { name: "Check Delivery", exact: true }).click();
  await expect(customer.getByTestId("delivery-result")).toContainText("We deliver to you!");
  const paymentTabOpened = customer.context().waitForEvent("page");
  await customer.getByRole("button", { name: "Place Order" }).click();
  const paymentTab = await paymentTabOpened;
  await expect(paymentTab.getByRole("heading", { name: "Pay Chill PB" })).toBeVisible();
  await paymentTab.getByLabel("Card number").fill("4242 4242 4242 4242");
  await paymentTab.getByRole("button", { name: /Pay \$34\.00/ }).click();
  await expect(paymentTab.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
  await customer.context().close();

  // The owner's list now counts that paid order as the code's first use of three.
  await page.goto("/admin/discount-codes");
  const used = page.getByRole("row").filter({ hasText: code });
  await expect(used).toContainText("1 / 3");
  await expect(used.getByRole("cell").nth(5)).toHaveText("0");
  await page.screenshot({ path: "test-results/screenshots/admin-discount-codes-used-desktop.png", fullPage: true });
});

test("staff see neither the Products page in the nav nor its content", async ({ staffPage: page }) => {
  await page.goto("/admin/");
  await expect(page.getByRole("heading", { name: "Orders" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Admin" });
  await expect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Products" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Discount codes" })).toHaveCount(0);

  await page.goto("/admin/products");
  await expect(page.getByRole("alert").filter({ hasText: "Only the shop's owner can do this." })).toBeVisible();
  await expect(page.getByRole("switch")).toHaveCount(0);
  await page.goto("/admin/discount-codes");
  await expect(page.getByRole("alert").filter({ hasText: "Only the shop's owner can do this." })).toBeVisible();
});

test("the new pages at 390 px", async ({ adminPage: page }) => {
  /** Nothing wider than the screen but a table's own scroll box. */
  const expectNoSidewaysScroll = async (name: string) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} is wider than the screen at 390 px`).toBeLessThanOrEqual(0);
  };
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/products");
  await expect(page.getByRole("switch", { name: "Chocolate Crunch in stock" })).toBeVisible();
  await expectNoSidewaysScroll("Products");
  await page.screenshot({ path: "test-results/screenshots/admin-products-phone.png", fullPage: true });
  await page.goto("/admin/products/bar-chocolate-pb");
  await expect(page.getByRole("button", { name: "Save changes" })).toBeVisible();
  await expectNoSidewaysScroll("A product");
  await page.screenshot({ path: "test-results/screenshots/admin-product-phone.png", fullPage: true });
  await page.goto("/admin/discount-codes");
  await expect(page.getByRole("link", { name: "WELCOME10" })).toBeVisible();
  await expectNoSidewaysScroll("Discount codes");
  await page.screenshot({ path: "test-results/screenshots/admin-discount-codes-phone.png", fullPage: true });
  await page.goto("/admin/discount-codes/WELCOME10");
  await expect(page.getByRole("button", { name: "Save code" })).toBeVisible();
  await expectNoSidewaysScroll("A discount code");
  await page.screenshot({ path: "test-results/screenshots/admin-discount-code-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin/products");
  await expect(page.getByRole("switch", { name: "Chocolate Crunch in stock" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/admin-products-desktop.png", fullPage: true });
});
