import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";

/**
 * What only the owner does: the newsletter subscribers and partnership
 * inquiries (searchable, exported as CSV) and the operators' accounts; staff
 * neither see nor open them.
 */

test("the owner finds a subscriber and an inquiry and exports them as CSV", async ({ adminPage: page, baseURL }) => {
  const tag = `e2e${randomUUID().slice(0, 8)}`;
  const origin = { Origin: baseURL ?? "" };
  expect((await page.request.post("/functions/v1/send-welcome-email", { data: { email: `fan.${tag}@example.com` }, headers: origin })).ok()).toBe(true);
  const inquiry = { name: `Rosa ${tag}`, email: `rosa.${tag}@example.com`, business: "Venice Juice Bar", message: "Could we stock your bites?\nWe open at 7." };
  expect((await page.request.post("/functions/v1/send-partnership-inquiry", { data: inquiry, headers: origin })).ok()).toBe(true);

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Subscribers" }).click();
  await expect(page.getByRole("heading", { name: "Newsletter subscribers" })).toBeVisible();
  await page.getByLabel("Search").fill(tag.toUpperCase());
  await expect(page.getByRole("cell", { name: `fan.${tag}@example.com` })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page).toHaveURL(new RegExp(`q.*${tag}`, "i"));
  await page.screenshot({ path: "test-results/screenshots/admin-subscribers-desktop.png", fullPage: true });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^chillpb-subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("email,subscribed_at,unsubscribed_at,status,source,consented_at,consent_note");
  expect(csv).toMatch(new RegExp(`fan\\.${tag}@example\\.com,[^,]+,,subscribed\\r\\n`));
  expect(csv.trimEnd().split("\r\n")).toHaveLength(2);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Inquiries" }).click();
  await expect(page.getByRole("heading", { name: "Partnership inquiries" })).toBeVisible();
  await page.getByLabel("Search").fill("venice juice");
  const card = page.getByRole("listitem").filter({ hasText: `Rosa ${tag}` });
  await expect(card).toBeVisible();
  await expect(card.getByRole("heading", { name: "Venice Juice Bar" })).toBeVisible();
  await expect(card).toContainText("We open at 7.");
  await page.screenshot({ path: "test-results/screenshots/admin-inquiries-desktop.png", fullPage: true });
});

test("the lists fit a phone", async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, heading] of [
    ["/admin/subscribers", "Newsletter subscribers"],
    ["/admin/inquiries", "Partnership inquiries"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    await expect(page.getByRole("button", { name: "Export CSV" })).toBeInViewport();
    // Nothing wider than the screen but the table's own scroll box.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screenshots/admin${path.replace("/admin", "").replace("/", "-")}-phone.png`, fullPage: true });
  }
});

test("the Operators page fits a phone", async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/operators");
  await expect(page.getByRole("heading", { name: "Operators" })).toBeVisible();
  // Each operator is a card on a phone, its role and Remove on screen rather than scrolled off to the side.
  const operators = page.getByRole("list", { name: "Operators" });
  const staff = operators.getByRole("listitem").filter({ hasText: "staff@chillpb.example" });
  await expect(operators.getByRole("listitem").filter({ hasText: "admin@chillpb.example" })).toContainText("you");
  await expect(staff.getByRole("textbox", { name: "Role, staff@chillpb.example" })).toBeVisible();
  await expect(staff.getByRole("button", { name: "Remove, staff@chillpb.example" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add" })).toBeVisible();
  // Nothing wider than the screen but the table's own scroll box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screenshots/admin-operators-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "test-results/screenshots/admin-operators-desktop.png", fullPage: true });
});

test("staff see neither list: not in the menu, and a direct link says owners only", async ({ staffPage: page }) => {
  await page.goto("/admin");
  const nav = page.getByRole("navigation", { name: "Admin" });
  await expect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Subscribers" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Inquiries" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Operators" })).toHaveCount(0);
  await page.goto("/admin/subscribers");
  await expect(page.getByRole("alert", { name: "Owners only" })).toContainText("Only the shop's owner can do this.");
  await expect(page.getByRole("heading", { name: "Newsletter subscribers" })).toHaveCount(0);
});

test("the owner adds a staff account, who can then sign in; a short password is refused with the values kept", async ({ adminPage: page, browser }) => {
  const email = `helper-${randomUUID().slice(0, 8)}@chillpb.test`;
  await page.goto("/admin/operators");
  await expect(page.getByRole("heading", { name: "Operators" })).toBeVisible();
  await expect(page.getByRole("cell", { name: /^admin@chillpb\.example/ })).toBeVisible();
  // Your own row never offers Remove, not even while the page is learning who you are.
  await expect(page.getByRole("button", { name: "Remove, admin@chillpb.example" })).toHaveCount(0);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("too short");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByText("needs at least 12 characters")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email);

  await page.getByLabel("Password").fill("a long enough passphrase");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByText(`${email} can now sign in as staff.`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row.getByRole("textbox", { name: `Role, ${email}` })).toHaveValue("Staff");

  const context = await browser.newContext();
  const response = await context.request.post("/auth/login", { form: { email, password: "a long enough passphrase" } });
  expect(response.ok()).toBe(true);
  await context.close();

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: `Remove, ${email}` }).click();
  await expect(page.getByText(`${email} can no longer sign in.`)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(0);
});

test("'New code' with a name that exists says so on the Code field and leaves the code as it was", async ({ adminPage: page, baseURL }) => {
  const code = `TAKEN-${randomUUID().slice(0, 6).toUpperCase()}`;
  const terms = { code, percentOff: 15, description: "15% for the e2e test", active: true, firstOrderOnly: false, usageLimit: 4, expiresAt: null };
  expect((await page.request.post("/functions/v1/save-discount-code", { data: terms, headers: { Origin: baseURL ?? "" } })).ok()).toBe(true);

  await page.goto("/admin/discount-codes/new");
  await page.getByRole("textbox", { name: "Code" }).fill(code.toLowerCase());
  await page.getByRole("textbox", { name: "Percent off" }).fill("90");
  await page.getByRole("textbox", { name: "Description" }).fill("Would overwrite the other one");
  await page.getByRole("button", { name: "Create code" }).click();

  const field = page.getByRole("textbox", { name: "Code" });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(new RegExp(`A code named ${code} already exists\\.`));
  await expect(page).toHaveURL(/\/admin\/discount-codes\/new$/);

  await page.goto("/admin/discount-codes");
  const row = page.getByRole("row").filter({ hasText: code });
  await expect(row).toContainText("15%");
  await expect(row).toContainText("15% for the e2e test");
  await expect(row).toContainText("0 / 4");
});
