import { test as base, expect, type APIRequestContext, type Page, type Response } from "@playwright/test";

/** The demo owner and staff that `npm start` (and so the e2e server) seeds; see prisma/seed-demo.ts. */
export const demoAdmin = { email: "admin@chillpb.example", password: "chillpb-demo-admin" };
export const demoStaff = { email: "staff@chillpb.example", password: "chillpb-demo-staff" };

/**
 * Signs `request` in as the demo owner. The suite's own attacks (wrong
 * passwords in hardening.spec.ts and hostile-text.spec.ts) spend the
 * account's free failed attempts for an hour, and a sign-in from a context
 * the shop has not seen (no device cookie) then waits out the backoff's few
 * seconds, as a person would: its 429 says how long (Retry-After).
 */
export async function signInDemoOwner(request: APIRequestContext) {
  for (let attempt = 0; ; attempt++) {
    const answer = await request.post("/auth/login", { form: demoAdmin });
    const wait = Number(answer.headers()["retry-after"] ?? "0");
    if (answer.status() !== 429 || attempt >= 3 || wait > 20) return answer;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

/** A storefront page that hydrates: a page of the shop's (not the admin app), answered 200 with HTML. */
function enhances(response: Response | null) {
  if (!response?.ok() || !(response.headers()["content-type"] ?? "").startsWith("text/html")) return false;
  return !new URL(response.url()).pathname.startsWith("/admin");
}

/**
 * A storefront page's scripts come once it has painted (decision 075), and
 * `goto` and `reload` return at the load event, which can come before the
 * scripts are even requested. With JavaScript on, `page.goto` and
 * `page.reload` here return once the page is enhanced (`html[data-enhanced]`,
 * set when the cart's context hydrates), as a person sees it a moment later.
 * A test of the page before it is enhanced says `test.use({ awaitEnhanced: false })`.
 */
export const test = base.extend<{ adminPage: Page; staffPage: Page; awaitEnhanced: boolean }>({
  awaitEnhanced: [true, { option: true }],
  page: async ({ page, javaScriptEnabled, awaitEnhanced }, use) => {
    if (javaScriptEnabled && awaitEnhanced) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      const enhanced = async (response: Response | null) => {
        if (enhances(response)) await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
        return response;
      };
      page.goto = async (...args) => enhanced(await goto(...args));
      page.reload = async (...args) => enhanced(await reload(...args));
    }
    await use(page);
  },
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
