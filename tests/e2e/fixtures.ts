import { test as base, expect, type Page } from "@playwright/test";

/** The demo admin that `npm start` (and so the e2e server) seeds; see prisma/seed-demo.ts. */
export const demoAdmin = { email: "admin@chillpb.example", password: "chillpb-demo-admin" };

/** A page whose browser is already signed in as the demo admin, without clicking through the form. */
export const test = base.extend<{ adminPage: Page }>({
  adminPage: async ({ page }, use) => {
    const response = await page.request.post("/auth/login", { form: demoAdmin });
    expect(response.ok()).toBe(true);
    await use(page);
  },
});

export { expect };
