import type { Locator, Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The admin's loading and error states: every list and page says it is
 * loading while it waits, and says a fetch failed as soon as the failed answer
 * comes (no silent retries with growing back-off that kept an empty table on
 * screen for 7-10 s).
 */

/** Answers every call to a function with `status` and counts the calls. */
async function failFunction(page: Page, name: string, status: number) {
  const calls = { count: 0 };
  await page.route(`**/functions/v1/${name}`, (route) => {
    calls.count++;
    return route.fulfill({ status, contentType: "application/json", body: JSON.stringify({ error: "The database is unavailable." }) });
  });
  return calls;
}

test("the orders list shows that it is loading, then its rows", async ({ adminPage: page }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/functions/v1/get-orders", async (route: Route) => {
    await held;
    await route.continue();
  });
  await page.goto("/admin");
  await expect(page.getByRole("status", { name: "Loading orders…" })).toBeVisible();
  release();
  await expect(page.getByRole("status", { name: "Loading orders…" })).toBeHidden();
  await expect(page.getByRole("row").nth(1)).toBeVisible();
});

test("a failed orders fetch says so after at most one retry, and Try again loads them", async ({ adminPage: page }) => {
  const calls = await failFunction(page, "get-orders", 500);
  await page.goto("/admin");
  const alert = page.getByRole("alert", { name: "Failed to fetch orders" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("The database is unavailable.");
  // The first try and one retry, not React Query's default four.
  expect(calls.count).toBeLessThanOrEqual(2);
  await page.unroute("**/functions/v1/get-orders");
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(alert).toBeHidden();
  await expect(page.getByRole("row").nth(1)).toBeVisible();
});

test("a 4xx answer is final at once: no retry", async ({ adminPage: page }) => {
  const calls = await failFunction(page, "get-dashboard", 400);
  await page.goto("/admin/dashboard");
  await expect(page.getByRole("alert", { name: "Failed to fetch the dashboard" })).toBeVisible();
  expect(calls.count).toBe(1);
});

test("an order that cannot be fetched says so, rather than 'Order not found'", async ({ adminPage: page }) => {
  await failFunction(page, "get-order", 503);
  await page.goto("/admin/orders/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("alert", { name: "Failed to fetch the order" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Order not found" })).toBeHidden();
});

test("an order that does not exist is 'Order not found'", async ({ adminPage: page }) => {
  await page.goto("/admin/orders/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
});

/**
 * Fails (or holds) the admin's role check: the /auth/me asked once the
 * signed-in frame is drawn. The sign-in checks before it (the shell's and
 * Refine's) pass, as the frame cannot be drawn while they wait.
 */
async function interceptRoleCheck(page: Page, answer: (route: Route) => Promise<void>) {
  const state = { active: true };
  await page.route("**/auth/me", async (route) => {
    const framed = (await page.getByRole("heading", { name: "Order Management" }).count()) > 0;
    if (state.active && framed) return answer(route);
    return route.continue();
  });
  return state;
}

test("an owner page says it is checking access while the role check runs", async ({ adminPage: page }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await interceptRoleCheck(page, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/admin/products");
  await expect(page.getByRole("status", { name: "Checking your access" })).toBeVisible();
  release();
  await expect(page.getByRole("heading", { name: "Products" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Checking your access" })).toBeHidden();
});

test("a failed role check is an error with Try again, not 'owners only', and Try again opens the page", async ({ adminPage: page }) => {
  const check = await interceptRoleCheck(page, (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "The shop is busy. Please try again." }) }),
  );
  await page.goto("/admin/discount-codes");
  const alert = page.getByRole("alert", { name: "Could not check your access" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("The shop is busy. Please try again.");
  await expect(page.getByText("Only the shop's owner can do this.")).toHaveCount(0);

  check.active = false;
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { name: "Discount codes" })).toBeVisible();
  await expect(alert).toBeHidden();
  // The nav's links, checked by the same access control, come back too.
  await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Discount codes" })).toBeVisible();
});

/**
 * The owner's pages (decision 028): each says it is loading while its
 * function is held, shows its error after the failed answer and at most one
 * retry (a 5xx is retried once, half a second later), and Try again loads it. `loaded` is what the page shows once its data has come.
 */
const ownerPages: { path: string; fn: string; loading: string; error: string; loaded: (page: Page) => Locator }[] = [
  {
    path: "/admin/products",
    fn: "get-products",
    loading: "Loading products…",
    error: "Failed to fetch products",
    loaded: (page) => page.getByRole("link", { name: "Chocolate Mini Bites" }).first(),
  },
  {
    path: "/admin/products/bites-variety",
    fn: "get-products",
    loading: "Loading the product",
    error: "Failed to fetch the product",
    loaded: (page) => page.getByRole("button", { name: "Save changes" }),
  },
  {
    path: "/admin/discount-codes",
    fn: "get-discount-codes",
    loading: "Loading discount codes…",
    error: "Failed to fetch discount codes",
    loaded: (page) => page.getByRole("link", { name: "WELCOME10" }).first(),
  },
  {
    path: "/admin/discount-codes/WELCOME10",
    fn: "get-discount-codes",
    loading: "Loading the code",
    error: "Failed to fetch the code",
    loaded: (page) => page.getByRole("button", { name: "Save code" }),
  },
  {
    path: "/admin/subscribers",
    fn: "get-subscribers",
    loading: "Loading subscribers…",
    error: "Failed to fetch subscribers",
    loaded: (page) => page.getByRole("row").nth(1).or(page.getByText("No subscribers found")),
  },
  {
    path: "/admin/inquiries",
    fn: "get-inquiries",
    loading: "Loading inquiries…",
    error: "Failed to fetch inquiries",
    loaded: (page) => page.getByRole("listitem").first().or(page.getByText("No inquiries found")),
  },
  {
    path: "/admin/operators",
    fn: "get-operators",
    loading: "Loading operators…",
    error: "Failed to fetch operators",
    loaded: (page) => page.getByRole("cell", { name: /admin@chillpb\.example/ }),
  },
];

for (const ownerPage of ownerPages) {
  test(`${ownerPage.path} says it is loading, then shows its data`, async ({ adminPage: page }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/functions/v1/${ownerPage.fn}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(ownerPage.path);
    await expect(page.getByRole("status", { name: ownerPage.loading })).toBeVisible();
    release();
    await expect(ownerPage.loaded(page)).toBeVisible();
    await expect(page.getByRole("status", { name: ownerPage.loading })).toBeHidden();
  });

  test(`${ownerPage.path} shows its error after the failed answer and at most one retry, and Try again loads it`, async ({ adminPage: page }) => {
    const calls = await failFunction(page, ownerPage.fn, 500);
    const failed = page.waitForResponse(`**/functions/v1/${ownerPage.fn}`);
    await page.goto(ownerPage.path);
    expect((await failed).status()).toBe(500);
    const alert = page.getByRole("alert", { name: ownerPage.error });
    await expect(alert).toBeVisible();
    // Said at once, not after a series of retries with growing back-off (speed itself is the bench's to judge).
    expect(calls.count).toBeLessThanOrEqual(2);
    await expect(alert).toContainText("The database is unavailable.");

    await page.unroute(`**/functions/v1/${ownerPage.fn}`);
    await alert.getByRole("button", { name: "Try again" }).click();
    await expect(ownerPage.loaded(page)).toBeVisible();
    await expect(alert).toBeHidden();
  });
}

test("a product or code that does not exist is 'not found', with no Try again", async ({ adminPage: page }) => {
  await page.goto("/admin/products/no-such-product");
  await expect(page.getByRole("alert", { name: "Product not found" })).toContainText("No product with that id.");
  await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
  await page.goto("/admin/discount-codes/NO-SUCH-CODE");
  await expect(page.getByRole("alert", { name: "Code not found" })).toContainText("No code named NO-SUCH-CODE.");
  await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
});
