import type { Page } from "@playwright/test";
import { deliveryDayLabel } from "../../app/lib/delivery-schedule";
import { expect, test } from "./fixtures";
import { paidOrder, uniqueEmail } from "./order-helpers";

/** A weekday (Monday to Friday) at least 3 days after today in Los Angeles, other than `not`. */
function weekdayAhead(not: string | null) {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date());
  const day = new Date(`${today}T12:00:00Z`);
  for (let ahead = 3; ; ahead++) {
    const next = new Date(day.getTime() + ahead * 86_400_000);
    const text = next.toISOString().slice(0, 10);
    if (next.getUTCDay() !== 0 && next.getUTCDay() !== 6 && text !== not) return text;
  }
}

/** The Prepare page on `day`, once that day's list (or its emptiness) has come. */
async function prepareFor(page: Page, day: string) {
  await page.goto("/admin/prepare");
  // It opens on the kitchen's next delivery day.
  await expect(page.getByRole("heading", { name: /^Deliveries for / })).toBeVisible();
  await page.getByLabel("Delivery day").fill(day);
  await expect(page.getByRole("heading", { name: `Deliveries for ${deliveryDayLabel(day)}` })).toBeVisible();
  await expect(page.getByRole("heading", { name: "To make" }).or(page.getByText("Nothing to prepare"))).toBeVisible();
}

test("the kitchen lists an order on its delivery day, and the owner moves it to another day from its page", async ({ adminPage: page }) => {
  const { orderId, shortId } = await paidOrder(page.request, uniqueEmail("delivery-day"));
  const answer = await page.request.post("/functions/v1/get-order", { data: { orderId } });
  expect(answer.ok()).toBe(true);
  const { order } = (await answer.json()) as { order: { delivery_date: string | null } };
  const first = order.delivery_date;
  expect(first, "a new order has a delivery day").not.toBeNull();

  // The Prepare page on the order's own day lists it.
  await prepareFor(page, first!);
  await expect(page.getByRole("link", { name: shortId })).toBeVisible();

  // Its page says the day, and moves it.
  const later = weekdayAhead(first);
  await page.goto(`/admin/orders/${orderId}`);
  const section = page.getByRole("region", { name: "Delivery day" });
  await expect(section.getByTestId("delivery-when")).toHaveText(new RegExp(`^${deliveryDayLabel(first!)}`));
  await section.getByLabel("Move to day").fill(later);
  const window = section.getByLabel("Window");
  if (await window.isVisible()) await window.selectOption({ label: "Whole day" });
  await section.getByRole("button", { name: "Move delivery" }).click();
  await expect(page.getByText(`Delivery moved to ${deliveryDayLabel(later)}`).first()).toBeVisible();
  await expect(section.getByTestId("delivery-when")).toHaveText(deliveryDayLabel(later));
  const moves = section.getByRole("list", { name: "Moves" });
  await expect(moves).toContainText(`${deliveryDayLabel(first!)}`);
  await expect(moves).toContainText(`→ ${deliveryDayLabel(later)}`);
  await expect(moves).toContainText("By admin@chillpb.example");

  // The new day's list has it; the old day's no longer does.
  await prepareFor(page, later);
  await expect(page.getByRole("link", { name: shortId })).toBeVisible();
  await prepareFor(page, first!);
  await expect(page.getByRole("link", { name: shortId })).toHaveCount(0);
});
