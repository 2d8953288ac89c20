import sharp from "sharp";
import type { Page } from "@playwright/test";
import { test, expect } from "./fixtures";
import { fillCart, fillShipping, westLa } from "./checkout-helpers";
import { emailTo, orderPageLink, uniqueEmail } from "./order-helpers";

/**
 * The owner adds a product with its picture, a customer buys it, and the owner
 * archives it (issue 23, item 3; decision 065). In the "catalog" project: for a
 * while the shared shop has a seventh product. It ends archived, so no other
 * spec ever sees it on the shop.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

/**
 * A 1,600 × 1,200 PNG made here, as large as a phone photo: the Banana Blast
 * artwork drawn large, a little more saturated.
 */
async function mangoPicture() {
  return sharp("public/images/products/bar-banana-pb.svg", { density: 192 }).resize(1600, 1200).modulate({ saturation: 1.25 }).png().toBuffer();
}

const SEVEN = ["Greek yogurt", "Peanut butter", "Honey", "Fruit", "Fair-trade chocolate", "Lemon juice", "Sea salt"];

async function tickAllSeven(page: Page) {
  for (const ingredient of SEVEN) await page.getByRole("checkbox", { name: ingredient, exact: true }).check();
}

test("the owner adds a product with a picture, a customer buys it, and once archived it leaves the shop but stays on the order", async ({
  adminPage: page,
  browser,
}) => {
  const suffix = Date.now().toString(36).slice(-5);
  const name = `Mango Tango ${suffix}`;
  const id = `bar-mango-tango-${suffix}`;
  const cleanUp = () => page.request.post("/functions/v1/archive-product", { data: { productId: id } });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin/products");
  await page.getByRole("link", { name: "Add product" }).click();
  await expect(page.getByRole("heading", { name: "Add a product" })).toBeVisible({ timeout: 20_000 });

  try {
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await page
      .getByRole("textbox", { name: "Description", exact: true })
      .fill("Ripe mango folded into peanut-butter Greek yogurt, half-dipped in fair-trade chocolate.");
    await page.getByRole("textbox", { name: "Price (dollars)" }).fill("7");
    await page.getByRole("textbox", { name: "Flavour (the card's label)" }).fill("Mango PB");
    // None ticked to start: the owner states what is in it.
    await expect(page.getByRole("group", { name: "Ingredients" }).getByRole("checkbox", { checked: true })).toHaveCount(0);
    await tickAllSeven(page);
    // Its ingredients bring peanuts and milk: declared, and fixed.
    await expect(page.getByRole("checkbox", { name: "Peanuts (from its ingredients)" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Peanuts (from its ingredients)" })).toBeDisabled();
    await page.getByLabel(/^Picture(?! description)/).setInputFiles({ name: "mango.png", mimeType: "image/png", buffer: await mangoPicture() });
    await expect(page.getByRole("img", { name: "Preview of the chosen picture" })).toBeVisible();
    const alt = "A frozen yogurt bar with a mango drizzle and mango slices on top, half-dipped in chocolate";
    await page.getByRole("textbox", { name: "Picture description" }).fill(alt);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "test-results/screenshots/admin-product-new-desktop.png", fullPage: true });

    // The server's field errors, beside their fields; what was typed and chosen is kept.
    await page.getByRole("textbox", { name: "Price (dollars)" }).fill("7.005");
    await page.getByRole("textbox", { name: "Picture description" }).fill("");
    await page.getByRole("button", { name: "Add product" }).click();
    await expect(page.getByText("Price must be a number of dollars with at most 2 decimals")).toBeVisible();
    await expect(page.getByText("Picture description cannot be empty")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(name);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "test-results/screenshots/admin-product-new-errors-desktop.png", fullPage: true });

    await page.getByRole("textbox", { name: "Price (dollars)" }).fill("7");
    await page.getByRole("textbox", { name: "Picture description" }).fill(alt);
    await page.getByRole("button", { name: "Add product" }).click();
    await expect(page.getByText(`${name} added to the shop.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/products/${id}$`));
    await expect(page.getByText("Added to the shop, at $7.00")).toBeVisible();

    // On the shop: last of the bars, its picture offered at every width it is kept at.
    const shopper = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await shopper.goto("/shop?category=bars");
    const card = shopper.getByRole("article", { name });
    await expect(card).toBeVisible();
    await expect(shopper.getByRole("article").last()).toHaveAccessibleName(name);
    const picture = card.locator("img").first();
    await expect(picture).toHaveAttribute("srcset", /\/product-images\/[0-9a-f]{16}-400\.webp 400w, .*-800\.webp 800w, .*-1200\.webp 1200w/);
    await expect(picture).toHaveJSProperty("complete", true);
    expect(await picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await expect(card.getByTestId("allergen-line")).toContainText("Contains: peanuts, milk.");
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: "test-results/screenshots/shop-new-product-card.png" });

    // Its page, with its facts.
    await card.getByRole("link", { name }).click();
    await expect(shopper.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(shopper.getByTestId("allergen-box")).toContainText("Contains: peanuts, milk");
    await expect(shopper.getByRole("heading", { name: "All seven organic ingredients" })).toBeVisible();
    await expect(shopper.getByRole("img", { name: alt })).toHaveJSProperty("complete", true);
    await shopper.evaluate(() => window.scrollTo(0, 0));
    await shopper.screenshot({ path: "test-results/screenshots/product-new-desktop.png" });
    await shopper.setViewportSize({ width: 390, height: 844 });
    await shopper.reload();
    await shopper.evaluate(() => window.scrollTo(0, 0));
    await expect(shopper.getByRole("img", { name: alt })).toHaveJSProperty("complete", true);
    await shopper.screenshot({ path: "test-results/screenshots/product-new-phone.png" });
    await shopper.close();

    // A customer buys three.
    const customer = await browser.newPage();
    const email = uniqueEmail("mango");
    await fillCart(customer, [{ productId: id, quantity: 3 }]);
    await customer.goto("/checkout");
    await expect(customer.getByTestId("order-total")).toHaveText("$31.00");
    await fillShipping(customer, { ...westLa, email });
    await customer.getByRole("button", { name: "Check Delivery", exact: true }).click();
    await expect(customer.getByTestId("delivery-result")).toContainText("We deliver to you!");
    const paymentTabOpened = customer.context().waitForEvent("page");
    await customer.getByRole("button", { name: "Place Order" }).click();
    const paymentTab = await paymentTabOpened;
    await paymentTab.getByLabel("Card number").fill("4242 4242 4242 4242");
    await paymentTab.getByRole("button", { name: /Pay \$31\.00/ }).click();
    await expect(paymentTab.getByRole("heading", { name: "Order Confirmed" })).toBeVisible();
    await customer.context().close();

    const link = orderPageLink(await emailTo(email, /is confirmed$/));
    const orderId = /\/orders\/([0-9a-f-]{36})/.exec(link)![1]!;
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByText(name).first()).toBeVisible({ timeout: 20_000 });

    // The owner archives it, after a confirmation.
    await page.goto(`/admin/products/${id}`);
    await page.getByRole("button", { name: "Archive product" }).click();
    const dialog = page.getByRole("dialog", { name: `Archive ${name}?` });
    await dialog.getByRole("button", { name: "Archive", exact: true }).click();
    await expect(page.getByText(`${name} is archived: it is no longer on the shop.`)).toBeVisible();
    await expect(page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: "Not on the shop" })).toBeVisible();
    await page.goto("/admin/products");
    await expect(page.getByRole("row").filter({ hasText: name }).getByText("Archived")).toBeVisible();
    await page.screenshot({ path: "test-results/screenshots/admin-products-archived-desktop.png", fullPage: true });

    // Gone from the shop; its old link says what happened; the order still shows it.
    const visitor = await browser.newPage();
    await visitor.goto("/shop?category=bars");
    await expect(visitor.getByRole("article")).toHaveCount(3);
    const retired = await visitor.goto(`/shop/${id}`);
    expect(retired?.status()).toBe(410);
    await expect(visitor.getByRole("heading", { level: 1, name: `${name} is no longer sold` })).toBeVisible();
    await visitor.goto(link);
    await expect(visitor.getByText(name)).toBeVisible();
    await visitor.close();
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByText(name).first()).toBeVisible({ timeout: 20_000 });
  } finally {
    expect((await cleanUp()).status()).toBeLessThan(500);
  }
});

test("Add a product at 390 px: every field in the width of the screen", async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/products");
  await expect(page.getByRole("link", { name: "Add product" })).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "Products is wider than the screen").toBeLessThanOrEqual(0);
  await page.goto("/admin/products/new");
  await expect(page.getByRole("heading", { name: "Add a product" })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel(/^Picture(?! description)/).setInputFiles({ name: "mango.png", mimeType: "image/png", buffer: await mangoPicture() });
  await expect(page.getByRole("img", { name: "Preview of the chosen picture" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "Add a product is wider than the screen at 390 px").toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screenshots/admin-product-new-phone.png", fullPage: true });
});

/** Papaya Punch's label per 100 g, as the owner types it (decision 096): a 90 g bar. */
const LABEL: [string, string][] = [
  ["Calories (kcal)", "210"],
  ["Total Fat (g)", "9"],
  ["Saturated Fat (g)", "5"],
  ["Trans Fat (g)", "0"],
  ["Cholesterol (mg)", "12"],
  ["Sodium (mg)", "95"],
  ["Total Carbohydrate (g)", "22"],
  ["Dietary Fiber (g)", "2.5"],
  ["Total Sugars (g)", "15"],
  ["Includes Added Sugars (g)", "6"],
  ["Protein (g)", "12"],
];

test("the owner adds a product with its own Nutrition Facts, replaces its picture, and its card and page show exactly those facts and claims", async ({
  adminPage: page,
  browser,
}) => {
  const suffix = Date.now().toString(36).slice(-5);
  const name = `Papaya Punch ${suffix}`;
  const id = `bar-papaya-punch-${suffix}`;
  const cleanUp = () => page.request.post("/functions/v1/archive-product", { data: { productId: id } });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin/products/new");
  await expect(page.getByRole("heading", { name: "Add a product" })).toBeVisible({ timeout: 20_000 });
  try {
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await page.getByRole("textbox", { name: "Description", exact: true }).fill("Papaya and lime folded into peanut-butter Greek yogurt.");
    await page.getByRole("textbox", { name: "Price (dollars)" }).fill("7");
    await page.getByRole("textbox", { name: "Flavour (the card's label)" }).fill("Papaya PB");
    await page.getByRole("checkbox", { name: "Greek yogurt", exact: true }).check();
    await page.getByRole("checkbox", { name: "Peanut butter", exact: true }).check();
    await page.getByRole("checkbox", { name: "Honey", exact: true }).check();
    await page.getByRole("checkbox", { name: "Fruit", exact: true }).check();
    await page.getByRole("textbox", { name: "Serving size: 1 bar (g)" }).fill("90");
    for (const [label, value] of LABEL.slice(0, 3)) await page.getByRole("textbox", { name: label, exact: true }).fill(value);
    await expect(page.getByTestId("claims-preview")).toHaveText("Fill in every figure, in numbers, to see the claims they make.");
    for (const [label, value] of LABEL.slice(3)) await page.getByRole("textbox", { name: label, exact: true }).fill(value);
    // What the shop will claim, before it is saved: 10.8 g protein a serving → 11 g; 189 kcal → 190.
    await expect(page.getByTestId("claims-preview")).toHaveText("Its card and page will say: 11g protein · Under 200 calories");
    await page.getByLabel(/^Picture(?! description)/).setInputFiles({ name: "papaya.png", mimeType: "image/png", buffer: await mangoPicture() });
    await page.getByRole("textbox", { name: "Picture description" }).fill("A papaya bar");

    // A figure that cannot be: the server's message beside its field, everything typed kept.
    await page.getByRole("textbox", { name: "Saturated Fat (g)", exact: true }).fill("12");
    await page.getByRole("button", { name: "Add product" }).click();
    await expect(page.getByText("cannot be more than the total fat")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Protein (g)", exact: true })).toHaveValue("12");
    await page.getByRole("textbox", { name: "Saturated Fat (g)", exact: true }).fill("5");
    await page.getByRole("button", { name: "Add product" }).click();
    await expect(page.getByText(`${name} added to the shop.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/products/${id}$`));

    // Its page in the dashboard holds the facts as typed; the picture is replaced there.
    await expect(page.getByRole("textbox", { name: "Protein (g)", exact: true })).toHaveValue("12");
    await expect(page.getByRole("checkbox", { name: "Lemon juice", exact: true })).not.toBeChecked();
    const before = await page.getByRole("img", { name: "Now: A papaya bar" }).getAttribute("src");
    const newPicture = await sharp("public/images/products/bar-strawberry-pb.svg", { density: 192 }).resize(1600, 1200).png().toBuffer();
    await page.getByLabel("New picture").setInputFiles({ name: "papaya-2.png", mimeType: "image/png", buffer: newPicture });
    await page.getByRole("button", { name: "Replace picture" }).click();
    await expect(page.getByText(`${name} has its new picture.`)).toBeVisible();
    await expect(page.getByRole("img", { name: "Now: A papaya bar" })).not.toHaveAttribute("src", before ?? "");
    const after = await page.getByRole("img", { name: "Now: A papaya bar" }).getAttribute("src");
    await expect(page.getByRole("heading", { name: "Change history" }).locator("..").getByText("Picture replaced")).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "test-results/screenshots/admin-product-facts-desktop.png", fullPage: true });

    const shopper = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await shopper.goto("/shop?category=bars");
    const card = shopper.getByRole("article", { name });
    await expect(card.getByTestId("card-claims").getByRole("listitem")).toHaveText(["11g protein", "Under 200 calories"]);
    await expect(card.locator("img").first()).toHaveAttribute("src", after ?? "");
    // A founding bar keeps what the requirements state.
    await expect(shopper.getByRole("article", { name: "Banana Blast" }).getByTestId("card-claims").getByRole("listitem")).toHaveText([
      "10g protein",
      "Under 200 calories",
      "0g refined sugar",
    ]);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: "test-results/screenshots/shop-card-own-facts.png" });

    await card.getByRole("link", { name }).click();
    await expect(shopper.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(shopper.getByTestId("product-claims").getByRole("listitem")).toHaveText(["11g protein", "Under 200 calories"]);
    await expect(shopper.getByRole("heading", { name: "4 of our seven organic ingredients" })).toBeVisible();
    const label = shopper.getByRole("table", { name: /Nutrition per serving/ });
    await expect(shopper.getByText("Serving size: 1 bar (90g)")).toBeVisible();
    const row = (nutrient: string) => label.getByRole("row", { name: new RegExp(`^${nutrient}\\b`) });
    await expect(row("Calories").getByRole("cell")).toHaveText(["190", "", "210"]);
    await expect(row("Total Fat").getByRole("cell")).toHaveText(["8g", "10%", "9g"]);
    await expect(row("Protein").getByRole("cell")).toHaveText(["11g", "", "12g"]);
    await expect(row("Includes Added Sugars").getByRole("cell")).toHaveText(["5g", "11%", "6g"]);
    await label.scrollIntoViewIfNeeded();
    await shopper.screenshot({ path: "test-results/screenshots/product-own-facts-desktop.png" });
    await shopper.setViewportSize({ width: 390, height: 844 });
    await shopper.reload();
    await shopper.getByRole("table", { name: /Nutrition per serving/ }).scrollIntoViewIfNeeded();
    expect(await shopper.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "the label is wider than the phone").toBeLessThanOrEqual(0);
    await shopper.screenshot({ path: "test-results/screenshots/product-own-facts-phone.png" });
    await shopper.close();
  } finally {
    expect((await cleanUp()).status()).toBeLessThan(500);
  }
});
