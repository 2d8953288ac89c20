import { expect, test } from "./fixtures";
import { emailTo, orderPageLink, paidOrder, uniqueEmail } from "./order-helpers";

// The customer's order page is plain server-rendered HTML: all of it works without JavaScript.
test("the order page from the confirmation email shows the order and its tracking without JavaScript", async ({ adminPage: page }) => {
  const email = uniqueEmail("no-js-order");
  const { orderId, shortId } = await paidOrder(page.request, email);
  const shipped = await page.request.post("/functions/v1/update-order-status", {
    data: { orderId, newStatus: "shipped", carrier: "USPS", trackingNumber: "9400 1000 0000 0000 0000 00" },
  });
  expect(shipped.ok()).toBe(true);

  await page.goto(orderPageLink(await emailTo(email, /is confirmed$/)));
  await expect(page.getByRole("heading", { level: 1, name: "Your treats are on their way" })).toBeVisible();
  await expect(page.getByText(`Order ${shortId}`, { exact: true })).toBeVisible();
  await expect(page.getByText("3 × Chocolate Mini Bites")).toBeVisible();
  await expect(page.getByRole("link", { name: "Track with USPS" })).toHaveAttribute(
    "href",
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000",
  );
  await page.getByRole("link", { name: "Shop more treats" }).click();
  await expect(page).toHaveURL(/\/shop$/);
});
