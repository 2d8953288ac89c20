import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import type { APIRequestContext } from "@playwright/test";
import { demoAdmin } from "./fixtures";

/**
 * NUL and invalid UTF-16 against every public address and form of the
 * running shop, and the functions' addresses, on the database the suite runs
 * on: each is refused with a 4xx before it reaches the database (404 for a
 * path, 400 for a query or a body, with the same words everywhere), never a
 * 500. Every function's body is tried from its declaration, in-process
 * (tests/integration/every-function.test.ts). The rule
 * itself is app/lib/text.ts; the readers are app/utils/api.server.ts and
 * app/utils/forms.server.ts; addresses are refused by server/http-guards.mjs.
 */

const UNACCEPTABLE = "Some of the text sent holds characters we cannot accept (control characters or broken Unicode).";

/** The hostile texts: as a JSON string escape, and as a form or URL escape (a lone surrogate cannot be UTF-8: its CESU bytes are sent). */
const HOSTILE = [
  { name: "NUL", json: "\\u0000", url: "%00" },
  { name: "a lone surrogate", json: "\\ud800", url: "%ED%A0%80" },
] as const;

type Hostile = (typeof HOSTILE)[number];

/** Every page and resource that answers GET, with a query parameter it reads (or any), and its path parameter where it has one. */
const ADDRESSES: { path: string; parameter: string; pathWith?: (text: string) => string }[] = [
  { path: "/", parameter: "partner" },
  { path: "/shop", parameter: "category" },
  { path: "/shop/bar-chocolate-pb", parameter: "cart", pathWith: (text) => `/shop/${text}` },
  { path: "/checkout", parameter: "cancelled" },
  { path: "/order-success", parameter: "session_id" },
  { path: "/orders/6f1c2a4e-9b1d-4c3e-8f7a-2d5b9e0c1a37", parameter: "token", pathWith: (text) => `/orders/${text}` },
  { path: "/unsubscribe", parameter: "token" },
  { path: "/privacy", parameter: "v" },
  { path: "/terms", parameter: "v" },
  { path: "/cart", parameter: "redirectTo" },
  { path: "/robots.txt", parameter: "v" },
  { path: "/sitemap.xml", parameter: "v" },
  { path: "/healthz", parameter: "v" },
  { path: "/mock-stripe/pay/cs_test_unknown", parameter: "v", pathWith: (text) => `/mock-stripe/pay/${text}` },
  { path: "/admin/orders", parameter: "v", pathWith: (text) => `/admin/${text}` },
  { path: "/auth/me", parameter: "v" },
];

/** Every form the storefront posts, one field made hostile (`{}` marks where). */
const FORMS: { name: string; path: string; fields: Record<string, string> }[] = [
  { name: "the newsletter sign-up", path: "/?index", fields: { intent: "newsletter", email: "hostile{}@example.com" } },
  { name: "the partnership inquiry's message", path: "/?index", fields: { intent: "partnership", name: "Ana", email: "ana@example.com", message: "Hello{}" } },
  { name: "the partnership inquiry's name", path: "/?index", fields: { intent: "partnership", name: "Ana{}", email: "ana@example.com", message: "Hello" } },
  { name: "add to cart", path: "/cart", fields: { intent: "add", productId: "bar-chocolate-pb{}", quantity: "1" } },
  { name: "the checkout's discount code", path: "/checkout", fields: { intent: "apply-discount", code: "WELCOME10{}", email: "ana@example.com" } },
  {
    name: "the checkout's address",
    path: "/checkout",
    fields: {
      intent: "check-delivery",
      firstName: "Ana",
      lastName: "Ruiz",
      email: "ana@example.com",
      address: "1 Main St{}",
      city: "Santa Monica",
      state: "CA",
      zipCode: "90401",
    },
  },
  { name: "unsubscribe", path: "/unsubscribe", fields: { token: "token{}" } },
  { name: "the operator sign-in", path: "/auth/login", fields: { email: "admin@chillpb.example", password: "chillpb-demo-admin{}" } },
];

const jsonWith = (value: unknown, hostile: Hostile) => JSON.stringify(value).replace("{}", hostile.json);
const formWith = (fields: Record<string, string>, hostile: Hostile) =>
  Object.entries(fields)
    .map(([name, value]) => `${name}=${encodeURIComponent(value).replace("%7B%7D", hostile.url)}`)
    .join("&");

async function signedInAsOwner(request: APIRequestContext) {
  const response = await request.post("/auth/login", { form: demoAdmin });
  expect(response.ok()).toBe(true);
}

async function expectRefusedBody(response: Awaited<ReturnType<APIRequestContext["post"]>>, what: string) {
  expect(response.status(), what).toBe(400);
  const type = response.headers()["content-type"] ?? "";
  if (type.startsWith("application/json")) expect(await response.json(), what).toMatchObject({ error: UNACCEPTABLE });
  else expect(await response.text(), what).toContain(UNACCEPTABLE);
}

for (const hostile of HOSTILE) {
  test.describe(`${hostile.name} is refused`, () => {
    for (const address of ADDRESSES) {
      test(`in the query of ${address.path}${address.pathWith ? ", and in its path" : ""}`, async ({ request }) => {
        const query = await request.get(`${address.path}?${address.parameter}=x${hostile.url}`, { maxRedirects: 0 });
        expect(query.status()).toBe(400);
        expect(await query.text()).toContain("This address holds characters we cannot read.");
        if (address.pathWith) {
          const path = await request.get(address.pathWith(`x${hostile.url}`), { headers: { Accept: "text/html" }, maxRedirects: 0 });
          expect(path.status()).toBe(404);
          // The edge's own page: the request never reached the app or its database.
          expect(await path.text()).toContain("There is no page at this address.");
        }
      });
    }

    for (const form of FORMS) {
      test(`in ${form.name}, posted as a page (no JavaScript) and as a fetcher`, async ({ request }) => {
        for (const accept of ["text/html", "application/json"]) {
          const response = await request.post(form.path, {
            headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: accept },
            data: formWith(form.fields, hostile),
            maxRedirects: 0,
          });
          await expectRefusedBody(response, `${form.path} as ${accept}`);
        }
      });
    }

    test("in a multipart form post", async ({ request }) => {
      const boundary = "chillpbboundary";
      const raw = hostile.name === "NUL" ? Buffer.from([0]) : Buffer.from([0xed, 0xa0, 0x80]);
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nnewsletter\r\n--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nana`,
        ),
        raw,
        Buffer.from(`@example.com\r\n--${boundary}--\r\n`),
      ]);
      const response = await request.post("/?index", {
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Accept: "application/json" },
        data: body,
      });
      await expectRefusedBody(response, "multipart");
    });

    // Every function's body is tried in-process, each from its declaration (tests/integration/every-function.test.ts).
    // The address is read by the edge before any route, so one function and one name the shop has not stand for them all.
    test("in the query of a function, and of a name that is no function", async ({ request }) => {
      await signedInAsOwner(request);
      for (const name of ["get-orders", "check-secrets", "no-such-function"]) {
        const response = await request.post(`/functions/v1/${name}?x=${hostile.url}`, { headers: { "Content-Type": "application/json" }, data: "{}" });
        expect(response.status(), name).toBe(400);
        expect(await response.json(), name).toEqual({ error: "This address holds characters we cannot read." });
      }
    });

    test("in the Stripe webhook (refused for its signature first) and in a JSON body that is not UTF-8", async ({ request }) => {
      const webhook = await request.post("/webhooks/stripe", {
        headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=0" },
        data: jsonWith({ id: "evt_{}", type: "checkout.session.completed" }, hostile),
      });
      expect(webhook.status()).toBe(400);
      // NUL as an overlong "modified UTF-8" pair, a surrogate as its CESU bytes: neither is UTF-8.
      const bytes = hostile.name === "NUL" ? [0xc0, 0x80] : [0xed, 0xb0, 0x80];
      const notUtf8 = Buffer.concat([Buffer.from('{"email":"ana'), Buffer.from(bytes), Buffer.from('@example.com"}')]);
      const response = await request.post("/functions/v1/send-welcome-email", { headers: { "Content-Type": "application/json" }, data: notUtf8 });
      await expectRefusedBody(response, "send-welcome-email with bytes that are not UTF-8");
    });
  });
}

test("nothing of a refused inquiry or sign-up is stored", async ({ request }) => {
  const marker = `hostile-${randomUUID().slice(0, 8)}`;
  for (const hostile of HOSTILE) {
    await request.post("/functions/v1/send-partnership-inquiry", {
      headers: { "Content-Type": "application/json" },
      data: jsonWith({ name: "Ana", email: `${marker}@example.com`, business: "", message: "Hello{}" }, hostile),
    });
    await request.post("/?index", {
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      data: formWith({ intent: "newsletter", email: `${marker}{}@example.com` }, hostile),
    });
  }
  await signedInAsOwner(request);
  const inquiries = await request.post("/functions/v1/get-inquiries", { headers: { "Content-Type": "application/json" }, data: { q: marker } });
  expect(await inquiries.json()).toMatchObject({ total: 0 });
  const subscribers = await request.post("/functions/v1/get-subscribers", { headers: { "Content-Type": "application/json" }, data: { q: marker } });
  expect(await subscribers.json()).toMatchObject({ total: 0 });
});
