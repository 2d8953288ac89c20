import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { scratchDatabase, startShop, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * The Prepare page (issue 23, item 2) on a shop of its own, with a day seeded
 * into its database: what to make, the drop-offs by zone and distance, the
 * packing slips and the day sheet printed to PDF (A4 and Letter), and orders
 * moved along together. The owner's slips carry names and addresses (each
 * look in the order's history); staff's carry initials.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 460 + Number(process.env.TEST_WORKER_INDEX ?? 0);
const ORIGIN = `http://localhost:${PORT}`;
const OWNER = { email: "owner@prepare.example", password: "prepare-owner-passphrase" };
const STAFF = { email: "staff@prepare.example", password: "prepare-staff-passphrase" };
let database: ScratchDatabase;
let shop: ShopProcess;

test.describe.configure({ mode: "serial" });

/** The seeded day: five paid orders to prepare in three zones, and three that are not work (shipped, unpaid, refunded). */
const DAY = [
  {
    name: ["Maya", "Rivera"],
    street: "1200 Ocean Park Blvd",
    zip: "90405",
    city: "Santa Monica",
    zone: "standard",
    tenths: 45,
    status: "pending",
    pay: "paid",
    items: [["bar-banana-pb", "Banana Blast", 600, 4]],
  },
  {
    name: ["Noah", "Kim"],
    street: "11600 Wilshire Blvd",
    zip: "90025",
    city: "Los Angeles",
    zone: "standard",
    tenths: 12,
    status: "pending",
    pay: "paid",
    items: [
      ["bar-banana-pb", "Banana Blast", 600, 1],
      ["bites-variety", "Chocolate Mini Bites", 1000, 3],
    ],
  },
  {
    name: ["Ava", "Chen"],
    street: "500 Pier Ave",
    zip: "90254",
    city: "Hermosa Beach",
    zone: "extended",
    tenths: 150,
    status: "preparing",
    pay: "paid",
    items: [["bites-variety", "Chocolate Mini Bites", 1000, 5]],
  },
  {
    // A name with an emoji in it, which the printed pages must print (issue 38: they printed blanks).
    name: ["Liam", "🍦Patel"],
    street: "300 Harbor Dr",
    zip: "90277",
    city: "Redondo Beach",
    zone: "premium",
    tenths: 230,
    status: "pending",
    pay: "paid",
    items: [["bites-strawberry", "Organic Strawberry Bites", 1000, 10]],
  },
  {
    name: ["Zoe", "Garcia"],
    street: "2000 Main St",
    zip: "90405",
    city: "Santa Monica",
    zone: "standard",
    tenths: 30,
    status: "pending",
    pay: "paid",
    items: [["bar-chocolate-pb", "Chocolate Crunch", 600, 4]],
  },
  {
    name: ["Old", "Shipped"],
    street: "1 Shipped St",
    zip: "90025",
    city: "Los Angeles",
    zone: "standard",
    tenths: 20,
    status: "shipped",
    pay: "paid",
    items: [["bar-chocolate-pb", "Chocolate Crunch", 600, 7]],
  },
  {
    name: ["Not", "Paid"],
    street: "1 Unpaid St",
    zip: "90025",
    city: "Los Angeles",
    zone: "standard",
    tenths: 20,
    status: "pending",
    pay: "unpaid",
    items: [["bar-chocolate-pb", "Chocolate Crunch", 600, 9]],
  },
  {
    name: ["Was", "Refunded"],
    street: "1 Refund St",
    zip: "90025",
    city: "Los Angeles",
    zone: "standard",
    tenths: 20,
    status: "pending",
    pay: "refunded",
    items: [["bar-chocolate-pb", "Chocolate Crunch", 600, 11]],
  },
] as const;

function tsx(script: string) {
  execFileSync("node_modules/.bin/tsx", ["--input-type=module", "--eval", script], { env: { ...process.env, DATABASE_URL: database.url }, stdio: "pipe" });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await scratchDatabase("chillpb_e2e_prepare");
  shop = await startShop(PORT, { ...process.env, DATABASE_URL: database.url, MOCKS: "true", OUTBOX_POLL_MS: "0", PUBLIC_URL: ORIGIN });
  tsx(`
    import { upsertAdmin } from "./app/models/operators.server";
    import { db } from "./app/utils/db.server";
    await upsertAdmin(${JSON.stringify(OWNER.email)}, ${JSON.stringify(OWNER.password)}, "owner");
    await upsertAdmin(${JSON.stringify(STAFF.email)}, ${JSON.stringify(STAFF.password)}, "staff");
    // The demo's sample orders go: this day is the only one.
    await db.order.deleteMany({});
    const day = ${JSON.stringify(DAY)};
    let minutes = 0;
    for (const order of day) {
      const subtotal = order.items.reduce((sum, [, , price, quantity]) => sum + price * quantity, 0);
      const email = order.name.join(".").toLowerCase() + "@prepare.example";
      await db.order.create({
        data: {
          email, mailbox: email, emailDomain: "prepare.example",
          firstName: order.name[0], lastName: order.name[1], phone: "(310) 555-01" + String(10 + minutes),
          address: order.street, city: order.city, state: "CA", zipCode: order.zip,
          subtotalCents: subtotal, discountCents: 0, shippingCents: 0, totalCents: subtotal,
          deliveryZone: order.zone, distanceTenths: order.tenths, status: order.status, paymentStatus: order.pay,
          paidAt: order.pay === "unpaid" ? null : new Date(), refundedAt: order.pay === "refunded" ? new Date() : null,
          createdAt: new Date(Date.now() - (60 - (minutes += 5)) * 60_000),
          items: { create: order.items.map(([productId, name, unitPriceCents, quantity]) => ({ productId, name, unitPriceCents, quantity })) },
        },
      });
    }
    await db.$disconnect();`);
});

test.afterAll(async () => {
  await shop?.stop();
  await database?.drop();
});

async function signIn(page: Page, who: { email: string; password: string }) {
  const response = await page.request.post(`${ORIGIN}/auth/login`, { form: who });
  expect(response.ok()).toBe(true);
}

test("the owner sees what to make and the drop-offs by zone, nearest first, and prints the day sheet and the slips on A4 and Letter", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, OWNER);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`${ORIGIN}/admin/prepare`);
  await expect(page.getByRole("heading", { name: "Prepare", exact: true })).toBeVisible();

  const toMake = page.getByRole("region", { name: "To make" });
  await expect(toMake.getByRole("listitem")).toHaveText(["10Organic Strawberry Bites", "8Chocolate Mini Bites", "5Banana Blast", "4Chocolate Crunch"]);
  await expect(toMake).toContainText("For the 5 orders below.");

  const zones = page.getByRole("region", { name: /zone/ });
  await expect(zones).toHaveCount(3);
  await expect(zones.nth(0).getByRole("heading")).toHaveText("Standard zone (up to 10 mi)");
  await expect(zones.nth(0).getByRole("row")).toHaveCount(4);
  // Nearest the kitchen first: Noah (1.2 mi), Zoe (3.0), Maya (4.5).
  await expect(zones.nth(0).getByRole("cell", { name: / mi$/ })).toHaveText(["1.2 mi", "3.0 mi", "4.5 mi"]);
  await expect(zones.nth(0)).toContainText("N.K. · Los Angeles");
  await expect(zones.nth(1).getByRole("heading")).toHaveText("Extended zone (up to 20 mi)");
  await expect(zones.nth(2)).toContainText("10 × Organic Strawberry Bites");
  // Masked on the page itself, for the owner too.
  await expect(page.getByText("Rivera")).toHaveCount(0);
  mkdirSync("test-results/screenshots", { recursive: true });
  await page.screenshot({ path: "test-results/screenshots/admin-prepare-desktop.png", fullPage: true });

  // The day sheet, for the owner with names, addresses and phones, each look recorded.
  await page.getByRole("link", { name: "Print day sheet" }).click();
  await expect(page.getByRole("heading", { name: "Chill PB · Day sheet" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Print day sheet" })).toBeVisible();
  await expect(page.getByText("Noah Kim")).toBeVisible();
  await expect(page.getByText("1200 Ocean Park Blvd")).toBeVisible();
  await expect(page.getByText("Liam 🍦Patel")).toBeVisible();
  await expect(page.getByText("Old Shipped")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/admin-day-sheet-desktop.png", fullPage: true });
  for (const format of ["A4", "Letter"] as const) {
    const pdf = await page.pdf({ format, path: `test-results/screenshots/day-sheet-${format}.pdf` });
    // The toolbar and its note are not printed; the sheet fits on one page.
    expect(pageCount(pdf), format).toBe(1);
    expect(pdf.toString("latin1")).not.toContain("Back to Prepare");
    // The emoji printed from the print pages' own emoji font, whatever fonts the computer has (this one has none).
    expect(pdf.toString("latin1"), format).toContain("/FontFamily (Noto Emoji)");
  }

  await page.goto(`${ORIGIN}/admin/prepare/print?doc=slips`);
  const slips = page.getByRole("article", { name: /^Packing slip, order/ });
  await expect(slips).toHaveCount(5);
  await expect(slips.first()).toContainText("Noah Kim");
  await expect(slips.first()).toContainText("11600 Wilshire Blvd");
  for (const format of ["A4", "Letter"] as const) {
    const pdf = await page.pdf({ format, path: `test-results/screenshots/packing-slips-${format}.pdf` });
    // One order a page.
    expect(pageCount(pdf), format).toBe(5);
  }

  // Each order shown in full has the look in its history.
  await page.goto(`${ORIGIN}/admin/prepare`);
  await zones
    .nth(0)
    .getByRole("link", { name: /^[0-9a-f]{8}$/ })
    .first()
    .click();
  await expect(page.getByText(/Customer details shown/).first()).toBeVisible();
});

test("staff move the selected orders along together: preparing, then shipped with each one's tracking; their slips show initials only", async ({ page }) => {
  await signIn(page, STAFF);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${ORIGIN}/admin/prepare`);
  const standard = page.getByRole("region", { name: /Standard zone/ });
  await expect(standard.getByRole("listitem")).toHaveCount(3);
  await page.screenshot({ path: "test-results/screenshots/admin-prepare-phone.png", fullPage: true });

  await standard.getByRole("checkbox", { name: "Select all orders in the standard zone" }).check();
  await expect(page.getByText("3 selected")).toBeVisible();
  await page.getByRole("button", { name: "Mark preparing" }).click();
  await expect(page.getByText("Marked preparing: 3 of 3 orders updated")).toBeVisible();
  await expect(standard.getByTestId("status-badge")).toHaveText(["preparing", "preparing", "preparing"]);

  // The slips for staff: initials and the city, no street.
  await page.goto(`${ORIGIN}/admin/prepare/print?doc=slips`);
  await expect(page.getByRole("article", { name: /^Packing slip/ })).toHaveCount(5);
  await expect(page.getByText("Names and addresses are the owner's to print")).toBeVisible();
  await expect(page.getByText("Wilshire")).toHaveCount(0);

  await page.goto(`${ORIGIN}/admin/prepare`);
  await expect(standard.getByRole("listitem")).toHaveCount(3);
  const ids = await standard
    .getByRole("checkbox", { name: /^Select order / })
    .evaluateAll((boxes) => boxes.map((box) => box.getAttribute("aria-label")!.slice("Select order ".length)));
  await standard.getByRole("checkbox", { name: `Select order ${ids[0]}` }).check();
  await standard.getByRole("checkbox", { name: `Select order ${ids[1]}` }).check();
  await page.getByRole("button", { name: "Mark shipped…" }).click();
  const dialog = page.getByRole("dialog", { name: "Ship 2 orders" });
  await dialog.getByLabel("Carrier").selectOption("Local courier");
  await dialog.getByLabel(`Tracking number, order ${ids[0]}`).fill("12");
  await dialog.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(dialog.getByText("Tracking number must be 6 to 40 characters.")).toBeVisible();
  await dialog.getByLabel(`Tracking number, order ${ids[0]}`).fill("LC-2026-1126-01");
  await dialog.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(page.getByText("Marked shipped: 2 of 2 orders updated")).toBeVisible();
  // Shipped orders are no longer the day's work.
  await expect(standard.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("region", { name: "To make" })).toContainText("For the 3 orders below.");
});

test("with nothing to prepare the page says so", async ({ page }) => {
  tsx(`
    import { db } from "./app/utils/db.server";
    await db.order.updateMany({ where: { status: { in: ["pending", "preparing"] }, paymentStatus: "paid" }, data: { status: "delivered" } });
    await db.$disconnect();`);
  await signIn(page, STAFF);
  await page.goto(`${ORIGIN}/admin/prepare`);
  await expect(page.getByText("Nothing to prepare")).toBeVisible();
  await expect(page.getByRole("link", { name: "Print day sheet" })).toHaveCount(0);
});

/** The number of pages in a PDF Chromium printed (each page object is `/Type /Page`, the tree's root `/Type /Pages`). */
function pageCount(pdf: Buffer) {
  return (pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
}
