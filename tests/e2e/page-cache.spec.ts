import { execFileSync } from "node:child_process";
import http from "node:http";
import { gunzipSync, gzipSync } from "node:zlib";
import { expect, test } from "./fixtures";
import { scratchDatabase, startShop, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * The page cache and the compressor against two real server processes over
 * one database, as two instances behind a load balancer
 * (docs/decisions/016): cached pages carry each response's own nonce and
 * still run their scripts, a product change made elsewhere reaches both
 * instances, a visitor's own pages are never cached, compressed pages arrive
 * whole, and product images are fingerprinted and kept for a year.
 */

// Two servers per Playwright worker, on ports of their own beside the main e2e server's.
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100) + 400 + Number(process.env.TEST_WORKER_INDEX ?? 0) * 2;
const ORIGIN = `http://localhost:${BASE_PORT}`;
const ORIGINS = [ORIGIN, `http://localhost:${BASE_PORT + 1}`];
let database: ScratchDatabase;
const servers: ShopProcess[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  // Migrating, seeding and starting two servers takes a while on a busy machine.
  test.setTimeout(120_000);
  database = await scratchDatabase("chillpb_e2e_page_cache");
  const env = { ...process.env, DATABASE_URL: database.url, MOCKS: "true", OUTBOX_POLL_MS: "0" };
  // One after the other: the first migrates and seeds, the second finds it done.
  for (const origin of ORIGINS) servers.push(await startShop(Number(new URL(origin).port), { ...env, PUBLIC_URL: origin }));
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.drop();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; raw: Buffer; body: string };

function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A connection per request: a kept-alive one may be closed by the server just as it is reused.
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const raw = Buffer.concat(chunks);
        const body = response.headers["content-encoding"] === "gzip" ? gunzipSync(raw).toString() : raw.toString();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, raw, body });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

const cspNonce = (answer: Answer) => /script-src 'self' 'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"]))?.[1];
const scriptNonces = (html: string) => [...html.matchAll(/<script\b[^>]*?\snonce="([^"]*)"/g)].map((match) => match[1]);

/** Changes a product the way every product write must: through changeCatalog, from another process. */
function setPrice(productId: string, priceCents: number) {
  const script = `
    import { changeCatalog } from "./app/models/catalog.server";
    import { db } from "./app/utils/db.server";
    await changeCatalog((tx) => tx.product.update({ where: { id: ${JSON.stringify(productId)} }, data: { priceCents: ${priceCents} } }));
    await db.$disconnect();`;
  execFileSync("node_modules/.bin/tsx", ["--input-type=module", "--eval", script], { env: { ...process.env, DATABASE_URL: database.url }, stdio: "pipe" });
}

test("a cached page carries its own response's fresh nonce on every script, and still runs them", async ({ page }) => {
  const origin = ORIGIN;
  await get(`${origin}/shop`);
  const first = await get(`${origin}/shop`);
  const second = await get(`${origin}/shop`);
  for (const answer of [first, second]) {
    expect(answer.status).toBe(200);
    expect(answer.headers["x-page-cache"]).toBe("hit");
    const nonce = cspNonce(answer);
    expect(nonce).toBeTruthy();
    expect(scriptNonces(answer.body).length).toBeGreaterThan(0);
    expect(new Set(scriptNonces(answer.body))).toEqual(new Set([nonce]));
  }
  expect(cspNonce(first)).not.toBe(cspNonce(second));
  expect(second.body).toBe(first.body.replaceAll(cspNonce(first)!, cspNonce(second)!));

  // In a browser, the cached page hydrates: the filters navigate without a reload and the cart opens.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(`${origin}/shop`);
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "not reloaded"));
  await page.getByRole("link", { name: "Mini Bites", exact: true }).click();
  await expect(page).toHaveURL(/category=bites/);
  await expect(page.getByRole("article")).toHaveCount(3);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("not reloaded");
  await page.getByRole("button", { name: "Add to cart, Organic Banana Bites" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  expect(violations).toEqual([]);
});

test("a product changed by another process shows on every instance, and each instance caches again", async () => {
  for (const origin of ORIGINS) {
    await get(`${origin}/shop?category=bars`);
    const cached = await get(`${origin}/shop?category=bars`);
    expect(cached.headers["x-page-cache"]).toBe("hit");
    expect(cached.body).toContain("$6.00");
    await get(`${origin}/`);
    expect((await get(`${origin}/`)).headers["x-page-cache"]).toBe("hit");
  }
  setPrice("bar-chocolate-pb", 725);
  try {
    for (const origin of ORIGINS) {
      // Each instance reads the catalogue version at most a second after its last read.
      await expect.poll(async () => (await get(`${origin}/shop?category=bars`)).body, { timeout: 10_000 }).toContain("$7.25");
      // The landing page (which shows the bars' lowest price, still $6.00) was cached too: it is rendered again.
      expect((await get(`${origin}/`)).headers["x-page-cache"]).toBe("miss");
      const again = await get(`${origin}/shop?category=bars`);
      expect(again.headers["x-page-cache"]).toBe("hit");
      expect(again.body).toContain("$7.25");
    }
  } finally {
    setPrice("bar-chocolate-pb", 600);
    // Every instance reads the restored version before the next test caches
    // pages, or a page it caches goes stale a second later. A page may show
    // $6.00 while its instance still holds the older version number (the
    // products are read after the version), so wait out one check interval
    // (1 s) after that and make each instance read the version again.
    for (const origin of ORIGINS) {
      await expect.poll(async () => (await get(`${origin}/shop?category=bars`)).body, { timeout: 10_000 }).toContain("$6.00");
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const origin of ORIGINS) await get(`${origin}/shop?category=bars`);
  }
});

test("a visitor's own pages are never cached, and a plain read sets no cookie", async () => {
  const origin = ORIGIN;
  for (const path of ["/", "/shop", "/shop?category=bites", "/shop?cart=open"]) {
    const answer = await get(`${origin}${path}`, { Accept: "text/html" });
    expect(answer.status, path).toBe(200);
    expect(answer.headers["set-cookie"], path).toBeUndefined();
  }

  // A cart of their own: the page is rendered for them, with their cart in it.
  const added = await fetch(`${origin}/cart`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: "intent=add&productId=bites-variety&quantity=2",
  });
  const cookie = added.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  expect(cookie).toContain("chillpb_cart=");
  const theirs = await get(`${origin}/shop`, { Cookie: cookie });
  // Rendered by Remix for them, and never kept (decision 089).
  expect(theirs.headers["x-page-cache"]).toBeUndefined();
  expect(theirs.body).toContain('aria-label="Open cart, 2 items"');
  // …and nobody else gets that cart.
  const anyone = await get(`${origin}/shop`);
  expect(anyone.headers["x-page-cache"]).toBe("hit");
  // A product's page is the catalogue's too; a product the catalogue lacks (404) is never kept.
  await get(`${origin}/shop/bites-variety`);
  expect((await get(`${origin}/shop/bites-variety`)).headers["x-page-cache"]).toBe("hit");
  expect((await get(`${origin}/shop/bites-variety`, { Cookie: cookie })).headers["x-page-cache"]).toBeUndefined();
  // The open drawer lists the cart's lines: rendered for them.
  const drawer = await get(`${origin}/shop?cart=open`, { Cookie: cookie });
  expect(drawer.headers["x-page-cache"]).toBeUndefined();
  expect(drawer.body).toContain("Chocolate Mini Bites");
  await get(`${origin}/shop/no-such-treat`);
  const unknown = await get(`${origin}/shop/no-such-treat`);
  expect(unknown.status).toBe(404);
  expect(unknown.headers["x-page-cache"]).toBe("miss");
  expect(anyone.body).toContain('aria-label="Open cart, 0 items"');
  expect(anyone.body).not.toContain('bites-variety","quantity');

  // Pages that are not the catalogue's are always rendered.
  for (const path of ["/checkout", "/order-success?session_id=cs_test_unknown", "/unsubscribe"]) {
    expect((await get(`${origin}${path}`)).headers["x-page-cache"], path).toBeUndefined();
  }
  // HEAD is answered from the cache with no body; other methods never are.
  const head = await get(`${origin}/shop`, {}, "HEAD");
  expect(head.headers["x-page-cache"]).toBe("hit");
  expect(head.raw.length).toBe(0);
});

/** A cart made by the shop's own /cart action: the cookie its answers set. */
async function cartCookie(origin: string, adds: { productId: string; quantity: number }[]) {
  let cookie = "";
  for (const { productId, quantity } of adds) {
    const added = await fetch(`${origin}/cart`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, Accept: "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: `intent=add&productId=${productId}&quantity=${quantity}`,
    });
    expect(added.ok).toBe(true);
    cookie =
      added.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ") || cookie;
  }
  return cookie;
}

test("a page a visitor with a cart opens after a cached one hydrates without a mismatch, and their cart works", async ({ page, context }) => {
  const origin = ORIGIN;
  const cookie = await cartCookie(origin, [{ productId: "bar-banana-pb", quantity: 2 }]);
  await get(`${origin}/shop/bar-banana-pb`);
  const [name, ...value] = cookie.split("=");
  await context.addCookies([{ name: name!, value: value.join("="), url: origin }]);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  const response = await page.goto(`${origin}/shop/bar-banana-pb`);
  expect(response?.headers()["x-page-cache"]).toBeUndefined();
  await expect(page.getByTestId("cart-count")).toHaveText("2");
  await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
  await page.getByRole("link", { name: "Open cart, 2 items" }).click();
  const drawer = page.getByRole("dialog", { name: "Your Cart" });
  await expect(drawer.getByText("Banana Blast")).toBeVisible();
  await drawer.getByRole("button", { name: "Add one more Banana Blast" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
  // React reports a page that does not match its data (a hydration mismatch) as an error in the console.
  expect(errors).toEqual([]);
});

test("a path no route claims is rendered once: every unknown path after it gets the kept 404 page, each logged, each with its own nonce", async ({ page }) => {
  const [server] = servers;
  const paths = ["/wp-login.php", "/no/such/page?utm_source=scan", `/missing-${Date.now()}`];
  const answers = [];
  for (const path of paths) answers.push(await get(`${ORIGIN}${path}`, { Accept: "text/html" }));
  // The first unknown path of this run may have been rendered by an earlier test's visit; the rest come from memory.
  expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404]);
  expect(answers.slice(1).map((answer) => answer.headers["x-page-cache"])).toEqual(["hit", "hit"]);
  for (const answer of answers) {
    expect(answer.body).toContain("Oops! Page not found");
    expect(scriptNonces(answer.body).every((nonce) => nonce === cspNonce(answer))).toBe(true);
  }
  // Broken links can still be found: each path in the log, rendered or not.
  await expect
    .poll(() =>
      server!
        .logLines()
        .filter((line) => String(line.msg).startsWith("404 Not Found:"))
        .map((line) => line.msg),
    )
    .toEqual(expect.arrayContaining(paths.map((path) => `404 Not Found: ${path.split("?")[0]}`)));
  // A single-fetch data request for such a path is Remix's own, in its own format.
  expect((await get(`${ORIGIN}/no/such/page.data`)).headers["x-page-cache"]).toBeUndefined();
  // Remix's route discovery is no unknown path: a visitor without a cookie still gets Remix's answer once a 404 is
  // kept (here 204, "reload": the version asked for is not the build's), never the kept page.
  const discovery = await get(`${ORIGIN}/__manifest?p=%2Fshop&version=not-this-build`);
  expect([discovery.status, discovery.headers["x-page-cache"]]).toEqual([204, undefined]);
  // The kept page works in a browser: its scripts run (its link home is a client-side navigation), and the
  // pages after it are found by client-side navigations (they ask the route discovery above first).
  await page.goto(`${ORIGIN}/no/such/page`);
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await page.getByRole("main").getByRole("link", { name: "Shop Now" }).first().click();
  await expect(page).toHaveURL(`${ORIGIN}/shop`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shop bars & bites");
  await page.getByRole("link", { name: "Strawberry Bliss" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Strawberry Bliss");
});

test("HTML is compressed, cached or rendered, and a cached page whole, around this response's own nonce", async () => {
  const origin = ORIGIN;
  // A toast cookie (even an unreadable one) makes the page the visitor's own: rendered and streamed by Remix.
  const cart = await cartCookie(origin, [{ productId: "bites-banana", quantity: 2 }]);
  const cases: { name: string; headers: Record<string, string>; outcome: string | undefined }[] = [
    { name: "cached", headers: {}, outcome: "hit" },
    { name: "rendered for a cart", headers: { Cookie: cart }, outcome: undefined },
    { name: "rendered for a message", headers: { Cookie: "chillpb_toast=unreadable" }, outcome: undefined },
  ];
  await get(`${origin}/`, { "Accept-Encoding": "gzip" });
  for (const { name, headers, outcome } of cases) {
    const answer = await get(`${origin}/`, { "Accept-Encoding": "gzip", ...headers });
    expect(answer.headers["x-page-cache"], name).toBe(outcome);
    expect(answer.headers["content-encoding"], name).toBe("gzip");
    expect(answer.body, name).toMatch(/^<!DOCTYPE html>/i);
    // Single fetch streams the page's data in scripts after the document's end.
    expect(answer.body, name).toContain("</html>");
    // The page's data for hydration, as single fetch streams it.
    expect(answer.body, name).toContain("window.__remixContext");
    expect(new Set(scriptNonces(answer.body)), name).toEqual(new Set([cspNonce(answer)]));
    // Sent in one piece, a cached page is compressed whole (a rendered one is flushed as Remix streams it).
    if (outcome === "hit") expect(answer.raw.length, name).toBeLessThan(gzipSync(answer.body).length * 1.1);
  }
});

test("product images are fingerprinted, served immutable for a year; the plain URLs keep working", async () => {
  const page = await get(`${ORIGIN}/shop`);
  const images = [...page.body.matchAll(/<img[^>]*?src="(\/images\/products\/[^"]+)"/g)].map((match) => match[1]!);
  expect(images).toHaveLength(6);
  for (const image of images) {
    const [, name, hash] = /^\/images\/products\/(.+)\.([0-9a-f]{10})\.svg$/.exec(image) ?? [];
    expect(hash, image).toBeTruthy();
    const answer = await get(`${ORIGIN}${image}`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toContain("image/svg+xml");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const plain = await get(`${ORIGIN}/images/products/${name}.svg`);
    expect(plain.status).toBe(200);
    expect(plain.body).toBe(answer.body);
    expect(plain.headers["cache-control"]).not.toContain("immutable");
  }
  // A fingerprint the file no longer has: sent to the current file, never kept as immutable.
  const stale = await get(`${ORIGIN}/images/products/bar-banana-pb.0123456789.svg`);
  expect(stale.status).toBe(302);
  expect(stale.headers.location).toBe("/images/products/bar-banana-pb.svg");
  expect((await get(`${ORIGIN}/images/products/no-such-image.0123456789.svg`)).status).toBe(404);
});
