import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { fillCart } from "./checkout-helpers";

/**
 * A page's scripts are fetched once it has painted (decision 075): the
 * browser spends the first moments on what the visitor sees (the stylesheets,
 * fonts and pictures), then fetches the scripts and hydrates the page.
 */

/** The page's errors: React reports a document that does not match what it rendered (a hydration mismatch) there. */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** When the page first painted content, and when each of its scripts was requested (ms since the navigation began). */
async function paintAndScripts(page: Page) {
  return page.evaluate(() => ({
    firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    scripts: performance
      .getEntriesByType("resource")
      .filter((entry) => new URL(entry.name).pathname.startsWith("/build/") && entry.name.endsWith(".js"))
      .map((entry) => ({ path: new URL(entry.name).pathname, requestedAt: entry.startTime })),
  }));
}

for (const path of ["/", "/shop", "/shop/bar-banana-pb"]) {
  test(`${path}: its scripts are requested only after its first contentful paint, and it hydrates without an error`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto(path);
    await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
    const { firstContentfulPaint, scripts } = await paintAndScripts(page);
    expect(firstContentfulPaint).not.toBeNull();
    // Remix's entry, the framework chunk, the root's and the page's own modules, at least.
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const script of scripts) expect(script.requestedAt, script.path).toBeGreaterThanOrEqual(firstContentfulPaint!);
    expect(errors).toEqual([]);
  });
}

// The forms are checked by the server (their schemas, zod, stay there): a page's scripts carry no validation
// library. The landing page's messages once brought zod's 15 kB (gzip) into `/` and `/checkout`.
test("the landing page and the checkout load no validation library", async ({ page }) => {
  const scripts = new Map<string, string>();
  page.on("response", async (response) => {
    if (/\/build\/.*\.js$/.test(new URL(response.url()).pathname)) scripts.set(response.url(), await response.text());
  });
  await page.goto("/");
  await fillCart(page, [{ productId: "bar-banana-pb", quantity: 2 }]);
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect.poll(() => scripts.size).toBeGreaterThanOrEqual(5);
  const withZod = [...scripts].filter(([, text]) => text.includes("ZodError")).map(([url]) => url);
  expect(withZod).toEqual([]);
});

const withoutPaintEntries = {
  "reports no paint": () => Object.defineProperty(window, "PerformanceObserver", { value: undefined }),
  // As browsers did before they took an entry type and `buffered` in observe().
  "refuses the paint observer's options": () => {
    PerformanceObserver.prototype.observe = () => {
      throw new TypeError("observe: an entryTypes list is required");
    };
  },
};
for (const [what, browser] of Object.entries(withoutPaintEntries))
  test(`a browser that ${what} hydrates the page after its first frame`, async ({ page }) => {
    await page.addInitScript(browser);
    const errors = collectErrors(page);
    await page.goto("/shop");
    await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
    const { scripts } = await paintAndScripts(page);
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    // The enhanced page works: the cart opens in place.
    await page.getByRole("link", { name: /^Open cart/ }).click();
    await expect(page.getByRole("dialog", { name: "Your Cart" })).toBeVisible();
    expect(errors).toEqual([]);
  });

test.describe("a page whose bytes arrive in two parts", () => {
  test.use({ awaitEnhanced: false });

  /**
   * A proxy in front of the shop that sends `/shop` in two parts, cut inside the module script's text, a second
   * apart: the page paints and the parser shows the script before the rest of its text has arrived, as on a slow
   * connection. Every other request passes through.
   */
  async function cutPageProxy(origin: string) {
    const server = http.createServer((request, response) => {
      const upstream = http.request(
        `${origin}${request.url}`,
        { method: request.method, headers: { ...request.headers, host: new URL(origin).host, "accept-encoding": "identity" } },
        (answer) => {
          if (request.url !== "/shop") {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => {
            const page = Buffer.concat(chunks).toString("utf8");
            const script = page.indexOf('type="module-after-paint"');
            const cut = page.indexOf("import", script) + 10;
            const headers = { ...answer.headers };
            delete headers["content-length"];
            response.writeHead(answer.statusCode ?? 502, headers);
            response.write(page.slice(0, cut));
            setTimeout(() => response.end(page.slice(cut)), 1_000);
          });
        },
      );
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
  }

  test("the scripts wait for the module script's whole text, and the page hydrates", async ({ page, baseURL }) => {
    const proxy = await cutPageProxy(baseURL!);
    try {
      const errors = collectErrors(page);
      await page.goto(`${proxy.origin}/shop`, { waitUntil: "commit" });
      await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
      const { firstContentfulPaint, scripts } = await paintAndScripts(page);
      // The page painted from its first part, before the second came.
      expect(firstContentfulPaint).not.toBeNull();
      expect(scripts.length).toBeGreaterThanOrEqual(4);
      expect(errors).toEqual([]);
    } finally {
      proxy.close();
    }
  });
});
