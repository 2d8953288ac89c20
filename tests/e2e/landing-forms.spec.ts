import { expect, test } from "./fixtures";

test("newsletter: empty stops silently, invalid email warns, success clears the field", async ({ page }) => {
  await page.goto("/#newsletter");
  const email = page.getByPlaceholder("Enter your email");
  const join = page.getByRole("button", { name: "Join Now" });

  await join.click();
  await expect(page.getByRole("alert")).toHaveCount(0);

  await email.fill("not-an-email");
  await join.click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid Email" })).toContainText("Please enter a valid email address.");
  await expect(email).toHaveValue("not-an-email");

  await email.fill(`fan-${Date.now()}@example.com`);
  await join.click();
  await expect(page.getByRole("status").filter({ hasText: "Welcome to Chill PB!" })).toContainText("WELCOME10");
  await expect(email).toHaveValue("");
  for (const tile of ["10% Off First Order", "Exclusive Updates", "New Flavor Alerts"]) {
    await expect(page.getByRole("heading", { name: tile })).toBeVisible();
  }
  await expect(page.getByText("We respect your privacy. Unsubscribe anytime. No spam, just delicious updates.")).toBeVisible();
});

test("partnership: missing information keeps the dialog open; success closes it with a toast", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Partner With Us" }).click();
  const dialog = page.getByRole("dialog", { name: "Partner With Us" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name*")).toBeFocused();

  await dialog.getByLabel("Name*").fill("Sam Lee");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Missing Information" })).toContainText("Please fill in all required fields.");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name*")).toHaveValue("Sam Lee");

  await dialog.getByLabel("Email*").fill("sam@beachgym.example");
  await dialog.getByLabel("Business Name").fill("Beach Gym");
  await dialog.getByLabel("Message*").fill("We'd love to stock your bars at our smoothie counter.");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Message Sent!" })).toContainText("Thank you for your interest! We'll be in touch soon.");
  await expect(dialog).toBeHidden();

  await page.getByRole("link", { name: "Partner With Us" }).click();
  await expect(page.getByRole("dialog").getByLabel("Name*")).toHaveValue("");
  await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
});
