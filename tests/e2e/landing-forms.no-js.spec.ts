import { expect, test } from "./fixtures";

// JavaScript is off: both forms are plain posts, their toasts come from the server.

test("newsletter sign-up with a plain form post shows the welcome toast", async ({ page }) => {
  await page.goto("/");
  await page.getByPlaceholder("Enter your email").fill("bad@");
  await page.getByRole("button", { name: "Join Now" }).click();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await expect(page.getByPlaceholder("Enter your email")).toHaveValue("bad@");

  await page.getByPlaceholder("Enter your email").fill(`nojs-fan-${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Join Now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Welcome to Chill PB!" })).toBeVisible();
  await expect(page.getByPlaceholder("Enter your email")).toHaveValue("");

  // The toast is shown once.
  await page.reload();
  await expect(page.getByText("Welcome to Chill PB!")).toHaveCount(0);
});

test("the partnership dialog opens at /?partner=open and sends with a plain post", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Partner With Us" }).click();
  await expect(page).toHaveURL(/partner=open/);
  const dialog = page.getByRole("dialog", { name: "Partner With Us" });

  await dialog.getByLabel("Name*").fill("Ana");
  await dialog.getByLabel("Email*").fill("ana@cafe");
  await dialog.getByLabel("Message*").fill("Hello!");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("dialog").getByText("Please enter a valid email address.")).toBeVisible();
  await expect(page.getByRole("dialog").getByLabel("Name*")).toHaveValue("Ana");

  await page.getByRole("dialog").getByLabel("Email*").fill("ana@cafe.example");
  await page.getByRole("dialog").getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Message Sent!" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
