import { randomUUID } from "node:crypto";
import { expectNoViolations } from "./axe-helpers";
import { expect, test } from "./fixtures";
import { emailTo } from "./order-helpers";

/**
 * The owner's campaigns to the family list (issue 40). The shared e2e server
 * has no SMTP_URL: its outbox worker (every OUTBOX_POLL_MS, 1 s by default)
 * sends each copy by writing it to var/mail as an .eml file, so a campaign
 * sent here finishes on its own within seconds, as it would through a mail
 * server, and the copies are read back from there (order-helpers' emailTo).
 * A campaign goes to everyone subscribed on the shared server, so no figure
 * here is a count of this test's own subscribers.
 */

/** The admin's first render can take seconds of CPU on a busy machine (a11y.spec.ts). */
const adminExpect = expect.configure({ timeout: 30_000 });

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("the owner sets the postal address, writes a campaign with a product and a code, tests it, sends it and watches it finish", async ({
  adminPage: page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const tag = randomUUID().slice(0, 8);
  const subject = `Maple Pecan is here ${tag}`;
  const fan = `fan.${tag}@example.com`;
  const signedUp = await page.request.post("/functions/v1/send-welcome-email", { data: { email: fan }, headers: { Origin: baseURL ?? "" } });
  expect(signedUp.ok()).toBe(true);

  // The address every email prints at its foot, which a campaign needs.
  await page.goto("/admin/settings");
  const postalAddress = page.getByRole("textbox", { name: "Postal address" });
  await adminExpect(postalAddress).toBeVisible();
  await postalAddress.fill("Chill PB\n1234 Sunset Blvd\nLos Angeles, CA 90026");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved").first()).toBeVisible();

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Campaigns" }).click();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 2 })).toBeVisible();
  await page.getByRole("link", { name: "New campaign" }).click();
  await page.getByRole("textbox", { name: "Subject" }).fill(subject);
  await page.getByRole("textbox", { name: "Preview text" }).fill("Fresh from the kitchen this week");
  await page.getByRole("textbox", { name: "Message" }).fill("Our newest bar is **Maple Pecan**.\n\nCold, creamy and made this week.");
  await page.getByRole("checkbox", { name: /^Chocolate Crunch/ }).click();
  await page.getByRole("combobox", { name: "Discount code" }).selectOption("WELCOME10");

  // The live preview follows the draft: the email as the shop renders it, in its sandboxed frame.
  const email = page.frameLocator('iframe[title^="Email preview"]');
  await expect(email.getByText(subject)).toBeVisible();
  await expect(email.getByRole("link", { name: "Chocolate Crunch" })).toBeVisible();
  await expect(email.getByText(/WELCOME10/)).toBeVisible();
  await expect(email.getByText(/1234 Sunset Blvd/)).toBeVisible();
  await page.getByRole("tab", { name: "Plain text" }).click();
  await expect(page.getByTestId("preview-text")).toContainText("Use code WELCOME10");
  await page.getByRole("tab", { name: "Email" }).click();

  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  await expect(page.getByTestId("campaign-status")).toHaveText("Draft");
  await expect(page.getByRole("checkbox", { name: /^Chocolate Crunch/ })).toBeChecked();
  await expect(email.getByRole("link", { name: "Chocolate Crunch" })).toBeVisible();
  await expectNoViolations(page, "the campaign editor with its preview");

  // A test to the owner's own address (the field starts with it).
  await page.getByRole("button", { name: "Send a test" }).click();
  const testDialog = page.getByRole("dialog", { name: "Send a test" });
  await expect(testDialog.getByRole("textbox", { name: "Send the test to" })).toHaveValue("admin@chillpb.example");
  await testDialog.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByText("A test copy is on its way to admin@chillpb.example.")).toBeVisible();
  await expect(testDialog).toBeHidden();
  expect(await emailTo("admin@chillpb.example", new RegExp(`^\\[Test\\] ${escape(subject)}$`))).toContain("Chocolate Crunch");

  // Sent now, after a question that says to how many.
  await page.getByRole("button", { name: "Send now" }).click();
  const question = page.getByRole("dialog", { name: "Send this campaign now?" });
  const send = question.getByRole("button", { name: /^Send to \d+ subscribers?$/ });
  await expect(send).toBeVisible();
  await expectNoViolations(page, "the send-now question");
  await send.click();

  // The page follows the copies until every one has gone.
  const progress = page.getByRole("progressbar", { name: "Copies done" });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "100", { timeout: 90_000 });
  await expect(page.getByTestId("campaign-status")).toHaveText("Sent");
  const [, done, recipients] = /^(\d+) of (\d+) done$/.exec((await page.getByTestId("campaign-done").textContent()) ?? "") ?? [];
  expect(Number(recipients)).toBeGreaterThanOrEqual(1);
  expect(done).toBe(recipients);
  // Sent to all but any who left the list while it went (another spec may forget a subscriber meanwhile).
  expect(Number(await page.getByTestId("count-sent").textContent())).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId("count-waiting")).toHaveText("0");
  await expect(page.getByTestId("count-failed")).toHaveText("0");
  await expect(page.getByRole("button", { name: "Cancel sending" })).toHaveCount(0);
  await expectNoViolations(page, "a sent campaign");

  // The subscriber's own copy: the product, the code and the postal address.
  const copy = await emailTo(fan, new RegExp(`^${escape(subject)}$`));
  expect(copy).toContain("Chocolate Crunch");
  expect(copy).toContain("Use code WELCOME10");
  expect(copy).toContain("1234 Sunset Blvd");

  await page.getByRole("link", { name: "← All campaigns" }).click();
  await expect(page.getByRole("row").filter({ hasText: subject }).getByTestId("campaign-status")).toHaveText("Sent");
});

test("a campaign without a subject is refused, the shop's message under the field", async ({ adminPage: page }) => {
  await page.goto("/admin/campaigns/new");
  const subject = page.getByRole("textbox", { name: "Subject" });
  await adminExpect(subject).toBeVisible();
  await page.getByRole("textbox", { name: "Message" }).fill("A message with no subject.");
  // The preview waits for a subject.
  await expect(page.getByTestId("preview-waiting")).toBeVisible();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(subject).toHaveAttribute("aria-invalid", "true");
  await expect(subject).toHaveAccessibleDescription("The subject is required");
  await expect(page.getByText("Please correct the fields marked in red.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/campaigns\/new$/);
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("A message with no subject.");
  await expectNoViolations(page, "a new campaign refused for its subject");
});

test("the owner imports a small list: added, and the line without consent refused with its reason", async ({ adminPage: page }) => {
  const tag = randomUUID().slice(0, 8);
  const csv = [
    "email,consent,note",
    `ana.${tag}@example.com,yes,market stall`,
    `ben.${tag}@example.com,no,market stall`,
    `cleo.${tag}@example.com,2026-03-01,`,
  ].join("\n");
  await page.goto("/admin/campaigns");
  const importer = page.getByRole("region", { name: "Import subscribers" });
  await adminExpect(importer).toBeVisible();
  await importer.getByLabel("CSV file").setInputFiles({ name: "market-list.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await importer.getByRole("button", { name: "Import" }).click();
  await expect(importer.getByTestId("import-summary")).toHaveText("2 added · 0 already subscribed · 1 refused");
  const refused = importer.getByRole("table", { name: "Refused lines" });
  await expect(refused.getByRole("row")).toHaveCount(2);
  const line = refused.getByRole("row").filter({ hasText: `ben.${tag}@example.com` });
  await expect(line.getByRole("cell").first()).toHaveText("3");
  await expect(line).toContainText('No consent: "no" is not yes or a date');
  await expectNoViolations(page, "the import's report");

  // They are on the list now.
  await page.goto(`/admin/subscribers?q=${tag}`);
  await expect(page.getByRole("cell", { name: `ana.${tag}@example.com` })).toBeVisible();
  await expect(page.getByRole("cell", { name: `cleo.${tag}@example.com` })).toBeVisible();
  await expect(page.getByRole("cell", { name: `ben.${tag}@example.com` })).toHaveCount(0);
});

test("staff see no Campaigns: not in the menu, its addresses say owners only, and the shop refuses its functions", async ({ staffPage: page }) => {
  await page.goto("/admin");
  const nav = page.getByRole("navigation", { name: "Admin" });
  await adminExpect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Campaigns" })).toHaveCount(0);
  for (const path of ["/admin/campaigns", "/admin/campaigns/new"]) {
    await page.goto(path);
    await expect(page.getByRole("alert", { name: "Owners only" })).toContainText("Only the shop's owner can do this.");
    await expect(page.getByRole("textbox", { name: "Subject" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Import subscribers" })).toHaveCount(0);
  }
  expect((await page.request.post("/functions/v1/get-campaigns", { data: {} })).status()).toBe(403);
});
