import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { createPrismaClient } from "../../app/utils/db.server";
import { expect as baseExpect, test } from "./fixtures";

/**
 * The owner's System page (decision 054): the shop's state in cards, and the
 * emails, where a dead one is sent again once. The e2e shop writes its emails
 * to files, so none dies by itself: the dead email is written straight into
 * the shared shop's database (E2E_DATABASE_URL, from global-setup.ts), as a
 * worker gives one up after its last attempt.
 */

let db: ReturnType<typeof createPrismaClient>;

// On a busy machine the admin's code alone can take seconds to start, and full-page screenshots a while.
test.describe.configure({ timeout: 90_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test.beforeAll(() => {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set: tests/e2e/global-setup.ts sets it to the shared shop's database");
  db = createPrismaClient(url);
});

test.afterAll(async () => {
  await db?.$disconnect();
});

async function deadEmail() {
  const tag = randomUUID().slice(0, 8);
  const email = {
    kind: "newsletter-welcome",
    to: `bounced-${tag}@example.com`,
    subject: `Welcome to Chill PB ${tag}`,
    text: "Thanks for signing up.",
    html: "<p>Thanks for signing up.</p>",
    status: "dead",
    attempts: 14,
    lastError: "550 5.1.1 Mailbox does not exist",
  };
  const { id } = await db.outboxMessage.create({ data: email });
  return { ...email, id };
}

/** The value beside a label in one of the page's cards. */
const fact = (page: Page, card: string, label: string) =>
  page
    .getByRole("region", { name: card })
    .locator("div", {
      has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }),
    })
    .getByRole("definition");

async function showStatus(page: Page, status: "All" | "Waiting" | "Sent" | "Dead") {
  await page.getByRole("textbox", { name: "Status" }).click();
  await page.getByRole("option", { name: status, exact: true }).click();
  await expect(page.getByRole("status", { name: "Loading emails…" })).toBeHidden();
}

test("the owner sees a dead email with its error and sends it again, once", async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await deadEmail();

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "System" }).click();
  await expect(page.getByRole("heading", { name: "System", level: 2 })).toBeVisible();
  await expect(fact(page, "Release", "Version")).toHaveText(/^\d+\.\d+\.\d+/);
  await expect(fact(page, "Database", "State")).toHaveText("Ready");
  // At least this test's; the other tests here add theirs meanwhile.
  await expect(fact(page, "Email queue", "Dead")).toHaveText(/^[1-9]\d*$/);
  const dead = Number(await fact(page, "Email queue", "Dead").textContent());
  expect(dead).toBeLessThanOrEqual(await db.outboxMessage.count({ where: { status: "dead" } }));

  await showStatus(page, "Dead");
  await expect(page).toHaveURL(/status.*dead/);
  const row = page.getByRole("row").filter({ hasText: email.to });
  await expect(row).toContainText(email.subject);
  await expect(row).toContainText("Dead");
  await expect(row).toContainText("14");
  await expect(row).toContainText("550 5.1.1 Mailbox does not exist");
  await page.screenshot({
    path: "test-results/screenshots/admin-system-dead-1440.png",
    fullPage: true,
  });

  await row.getByRole("button", { name: `Resend "${email.subject}" to ${email.to}` }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Email queued again" })).toBeVisible();
  const copy = await db.outboxMessage.findFirstOrThrow({
    where: { to: email.to, NOT: { id: email.id } },
  });
  await expect(row).toContainText(`Resent as ${copy.id.slice(0, 8)}`);
  await expect(row.getByRole("button", { name: /^Resend/ })).toHaveCount(0);
  // The cards are refetched: the copy waits for the worker (or has gone out already), and the original stays dead.
  await expect(fact(page, "Email queue", "Dead")).toHaveText(/^[1-9]\d*$/);
  expect(Number(await fact(page, "Email queue", "Dead").textContent())).toBeGreaterThanOrEqual(dead);
  await showStatus(page, "All");
  const copyRow = page.getByRole("row").filter({ hasText: email.to }).filter({ hasNotText: "Resent" });
  await expect(copyRow).toHaveCount(1);
  await expect(copyRow).toContainText(/Waiting|Sent/);
  await page.screenshot({
    path: "test-results/screenshots/admin-system-resent-1440.png",
    fullPage: true,
  });

  // A second Resend of the same email is refused, naming the copy.
  const again = await page.request.post("/functions/v1/resend-email", {
    data: { id: email.id },
  });
  expect(again.status()).toBe(409);
  expect(await again.json()).toEqual({
    error: `This email was resent already (as ${copy.id}).`,
  });
});

test("a refused Resend shows the server's words", async ({ adminPage: page }) => {
  const email = await deadEmail();
  await page.goto("/admin/system?filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=dead");
  const row = page.getByRole("row").filter({ hasText: email.to });
  await expect(row).toContainText("Dead");
  // Someone else resent it meanwhile: this page's button still shows, and the server refuses.
  expect(
    (
      await page.request.post("/functions/v1/resend-email", {
        data: { id: email.id },
      })
    ).ok(),
  ).toBe(true);
  await row.getByRole("button", { name: `Resend "${email.subject}" to ${email.to}` }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Email not resent" })).toContainText("This email was resent already");
  // The list is refetched: the row now says it was resent.
  await expect(row).toContainText("Resent as");
});

test("the System page fits a phone", async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const email = await deadEmail();
  await page.goto("/admin/system");
  await expect(page.getByRole("heading", { name: "System", level: 2 })).toBeVisible();
  await expect(fact(page, "Email queue", "Dead")).toHaveText(/^\d+$/);
  // Each email is a card on a phone, its Resend on screen rather than scrolled off to the side.
  const card = page.getByRole("list", { name: "Emails" }).getByRole("listitem").filter({ hasText: email.to });
  await expect(card).toContainText("550 5.1.1 Mailbox does not exist");
  await expect(
    card.getByRole("button", {
      name: `Resend "${email.subject}" to ${email.to}`,
    }),
  ).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({
    path: "test-results/screenshots/admin-system-390.png",
    fullPage: true,
  });
});

test("staff do not see the System page: not in the menu, and a direct link says owners only", async ({ staffPage: page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin");
  const nav = page.getByRole("navigation", { name: "Admin" });
  // The links appear once the role is known.
  await expect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "System" })).toHaveCount(0);
  await page.goto("/admin/system");
  await expect(page.getByRole("alert").filter({ hasText: "Owners only" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "System", level: 2 })).toHaveCount(0);
  expect((await page.request.post("/functions/v1/get-system", { data: {} })).status()).toBe(403);
});
