import { test as base, expect, type Page } from "@playwright/test";

/** The demo owner and staff that `npm start` (and so the e2e server) seeds; see prisma/seed-demo.ts. */
export const demoAdmin = { email: "admin@chillpb.example", password: "chillpb-demo-admin" };
export const demoStaff = { email: "staff@chillpb.example", password: "chillpb-demo-staff" };

/**
 * Pages whose browser is already signed in, without clicking through the
 * form: `adminPage` as the demo owner, `staffPage` as the demo staff.
 */
export const test = base.extend<{ adminPage: Page; staffPage: Page }>({
  adminPage: async ({ page }, use) => {
    const response = await page.request.post("/auth/login", { form: demoAdmin });
    expect(response.ok()).toBe(true);
    await use(page);
  },
  staffPage: async ({ page }, use) => {
    const response = await page.request.post("/auth/login", { form: demoStaff });
    expect(response.ok()).toBe(true);
    await use(page);
  },
});

export { expect };
