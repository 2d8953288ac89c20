import { once } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { http, passthrough } from "msw";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clientAddressOf, refuseUnreadableUrls, securityHeaders } from "../../server/http-guards.mjs";
import { CACHEABLE_PAGES, PageStore, pageCache, pageKey } from "../../server/page-cache.mjs";
import { loggedPath, requestLog } from "../../server/request-log.mjs";
import { answerUnservedMethods, routeFacts, type RouteFacts } from "../../server/routes.mjs";
import { unacceptableUrlPart } from "~/lib/text";
import { requestContext } from "~/utils/logger.server";
import { server as msw } from "../setup/msw";

/**
 * The HTTP edge's own pieces (server/*.mjs) on small Express apps of their
 * own: route facts and the methods a route answers, addresses the shop cannot
 * read, the page cache's keys, the request id and the request's log line.
 * tests/e2e/http-edge.spec.ts runs them together in the real server.
 */

const servers: Server[] = [];

beforeEach(() => {
  // These apps listen on this machine; MSW lets requests to them through.
  msw.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()));
});

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(app: express.Express) {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A manifest shaped as Remix builds one: a root layout, pages with and without actions, resource routes, the catch-all. */
const page = { default: () => null, loader: () => null };
const manifest = {
  root: { id: "root", path: "", module: { ...page, ErrorBoundary: () => null } },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true, module: { ...page, action: () => null } },
  "routes/shop": { id: "routes/shop", parentId: "root", path: "shop", module: page },
  "routes/shop_.$id": { id: "routes/shop_.$id", parentId: "root", path: "shop/:id", module: page },
  "routes/cart": { id: "routes/cart", parentId: "root", path: "cart", module: { loader: () => null, action: () => null } },
  "routes/functions.v1.get-orders": { id: "routes/functions.v1.get-orders", parentId: "root", path: "functions/v1/get-orders", module: { action: () => null } },
  "routes/healthz": { id: "routes/healthz", parentId: "root", path: "healthz", module: { loader: () => null } },
  "routes/email-images.$file": { id: "routes/email-images.$file", parentId: "root", path: "email-images/:file", module: { loader: () => null } },
  "routes/admin.$": { id: "routes/admin.$", parentId: "root", path: "admin/*", module: { loader: () => null } },
  "routes/$": { id: "routes/$", parentId: "root", path: "*", module: { ...page, ErrorBoundary: () => null } },
} as unknown as Parameters<typeof routeFacts>[0];

describe("route facts (server/routes.mjs)", () => {
  const routes = routeFacts(manifest);

  it.each([
    ["/", "", { pattern: "/", allow: ["GET", "HEAD"], notFound: false }],
    ["/", "index", { pattern: "/", allow: ["GET", "HEAD", "POST"], notFound: false }],
    ["/shop/bar-chocolate-pb", "cart=open", { pattern: "/shop/:id", allow: ["GET", "HEAD"], notFound: false }],
    ["/cart", "", { pattern: "/cart", allow: ["GET", "HEAD", "POST"], notFound: false }],
    ["/functions/v1/get-orders", "", { pattern: "/functions/v1/get-orders", allow: ["POST"], notFound: false }],
    ["/healthz", "", { pattern: "/healthz", allow: ["GET", "HEAD"], notFound: false }],
    // A picture file's resource route: its own pattern, never the not-found page's, though its path names a file.
    ["/email-images/bar-chocolate-pb.3f2a1b9c0d.jpg", "", { pattern: "/email-images/:file", allow: ["GET", "HEAD"], notFound: false }],
    ["/admin/orders/42", "", { pattern: "/admin/*", allow: ["GET", "HEAD"], notFound: false }],
    ["/no/such/page", "", { pattern: "/*", allow: ["GET", "HEAD"], notFound: true }],
    // A page's data, as single fetch asks for it.
    ["/_root.data", "", { pattern: "/.data", allow: ["GET", "HEAD"], notFound: false }],
    ["/_root.data", "index", { pattern: "/.data", allow: ["GET", "HEAD", "POST"], notFound: false }],
    ["/shop.data", "", { pattern: "/shop.data", allow: ["GET", "HEAD"], notFound: false }],
    ["/shop/bar-chocolate-pb.data", "", { pattern: "/shop/:id.data", allow: ["GET", "HEAD"], notFound: false }],
    ["/cart.data", "", { pattern: "/cart.data", allow: ["GET", "HEAD", "POST"], notFound: false }],
    ["/no/such/page.data", "", { pattern: "/*.data", allow: ["GET", "HEAD"], notFound: true }],
    // Remix's own route discovery (v3_lazyRouteDiscovery), asked before each client-side navigation to a new path:
    // no route of the shop's claims it, yet it is not a page not found (served the kept 404, navigation broke).
    ["/__manifest", "p=%2Fshop&version=abc", { pattern: "/__manifest", allow: ["GET", "HEAD"], notFound: false }],
  ] as const)("%s?%s", (pathname, search, facts) => {
    expect(routes.describe(pathname, search)).toEqual(facts);
  });

  it("answers what a route does not serve with 405 and Allow, and a path that names nothing with 404", async () => {
    const app = express();
    app.use((req, res, next) => {
      res.locals.facts = routes.describe(req.path, new URL(req.originalUrl, "http://x").search);
      next();
    });
    app.use(answerUnservedMethods((_req, res) => res.locals.facts as RouteFacts));
    app.all("*", (_req, res) => void res.send("served"));
    const origin = await listen(app);

    const options = await fetch(`${origin}/shop`, { method: "OPTIONS" });
    expect(options.status).toBe(405);
    expect(options.headers.get("Allow")).toBe("GET, HEAD");
    const post = await fetch(`${origin}/`, { method: "POST", headers: { Accept: "text/html" } });
    expect([post.status, post.headers.get("Allow")]).toEqual([405, "GET, HEAD"]);
    expect(await post.text()).toContain("This address answers GET, HEAD only.");
    expect((await fetch(`${origin}/?index`, { method: "POST" })).status).toBe(200);
    const get = await fetch(`${origin}/functions/v1/get-orders`);
    expect([get.status, get.headers.get("Allow"), await get.json()]).toEqual([405, "POST", { error: "This address answers POST only." }]);
    expect((await fetch(`${origin}/cart`, { method: "PUT" })).status).toBe(405);
    expect((await fetch(`${origin}/cart`, { method: "DELETE" })).status).toBe(405);
    const nowhere = await fetch(`${origin}/no/such/page`, { method: "POST" });
    expect([nowhere.status, nowhere.headers.get("Allow")]).toEqual([404, null]);
    expect((await fetch(`${origin}/no/such/page`)).status).toBe(200);
  });
});

describe("addresses the shop cannot read (server/http-guards.mjs)", () => {
  it("answers 404 for such a path and 400 for such a query, before anything behind it runs", async () => {
    const app = express();
    let reached = 0;
    app.use(refuseUnreadableUrls(unacceptableUrlPart));
    app.all("*", (_req, res) => void (reached++, res.send("served")));
    const origin = await listen(app);
    const cases = [
      ["/shop/%00", 404],
      ["/%E0%A4%A", 404],
      ["/shop/%ED%A0%80", 404],
      ["/unsubscribe?token=%00", 400],
      ["/orders/1?token=%ED%A0%80", 400],
      ["/shop?category=bars%0A", 400],
    ] as const;
    for (const [path, status] of cases) {
      const answer = await fetch(`${origin}${path}`, { headers: { Accept: "text/html" } });
      expect(answer.status, path).toBe(status);
      expect(await answer.text()).not.toMatch(/at \w+ \(|Error:/);
    }
    expect(reached).toBe(0);
    expect((await fetch(`${origin}/shop/caf%C3%A9?cart=open`)).status).toBe(200);
    expect(reached).toBe(1);
  });
});

describe("the security headers (server/http-guards.mjs)", () => {
  it("gives every answer a nonce of its own, 16 random bytes, in its policy and to the page", async () => {
    const app = express();
    app.use(securityHeaders({ https: false, formActionOrigins: ["https://checkout.stripe.com"] }));
    app.get("/", (_req, res) => void res.send(String(res.locals.cspNonce)));
    const origin = await listen(app);
    const nonces = new Set<string>();
    for (let index = 0; index < 100; index++) {
      const answer = await fetch(`${origin}/`);
      const nonce = await answer.text();
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(answer.headers.get("Content-Security-Policy")).toBe(
        `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; ` +
          "connect-src 'self'; form-action 'self' https://checkout.stripe.com; frame-ancestors 'none'; base-uri 'self'; object-src 'none'",
      );
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(100);
  });
});

describe("the page cache's keys (server/page-cache.mjs)", () => {
  it("keeps a page under its path and the parameters it reads, in one order", () => {
    expect(pageKey("/", "")).toBe("/");
    expect(pageKey("/shop", "cart=open&category=bars")).toBe("/shop?category=bars&cart=open");
    expect(pageKey("/shop", "category=bars&cart=open")).toBe("/shop?category=bars&cart=open");
    expect(pageKey("/?partner=open".split("?")[0]!, "partner=open")).toBe("/?partner=open");
  });

  it("keeps nothing for any other parameter, value or a repeat", () => {
    for (const [path, search] of [
      ["/", "utm_source=newsletter"],
      ["/", "x=1"],
      ["/shop", "category=snacks"],
      ["/shop", "category=bars&category=bites"],
      ["/shop/bar-chocolate-pb", "cart=closed"],
      ["/privacy", "v=2"],
      ["/checkout", ""],
    ]) {
      expect(pageKey(path!, search!), `${path}?${search}`).toBeNull();
    }
  });

  it("still serves / from memory after 300 requests with unique queries", async () => {
    let renders = 0;
    const page = (nonce: unknown) => `<html><body><p>page ${renders}</p><script nonce="${String(nonce)}">1</script></body></html>`;
    const app = express();
    app.use((_req, res, next) => ((res.locals.cspNonce = "n0nce-n0nce-n0nce-n0nce="), next()));
    app.use(
      pageCache({
        render: async (_request, context) => (renders++, new Response(page(context.cspNonce), { headers: { "Content-Type": "text/html" } })),
        getLoadContext: (_req, res) => ({ clientAddress: "127.0.0.1", cspNonce: String(res.locals.cspNonce) }),
        version: async () => "1",
        store: new PageStore({ maxEntries: 200 }),
        pages: CACHEABLE_PAGES,
      }),
    );
    app.get("*", (_req, res) => {
      renders++;
      res.type("html").send(page(res.locals.cspNonce));
    });
    const origin = await listen(app);
    expect((await fetch(`${origin}/`)).headers.get("X-Page-Cache")).toBe("miss");
    expect((await fetch(`${origin}/`)).headers.get("X-Page-Cache")).toBe("hit");
    for (let index = 0; index < 300; index++) {
      const answer = await fetch(`${origin}/?visit=${index}`);
      expect(answer.headers.get("X-Page-Cache")).toBe("bypass");
    }
    const after = await fetch(`${origin}/`);
    expect(after.headers.get("X-Page-Cache")).toBe("hit");
    expect(await after.text()).toContain("page 1");
    expect(renders).toBe(301);
  });
});

describe("the request's id and log line (server/request-log.mjs)", () => {
  async function loggingApp(trustProxy: false | number) {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ base: null }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = express();
    app.set("trust proxy", trustProxy);
    app.use(requestLog({ logger: () => logger, requestContext: () => requestContext }));
    app.get("*", (req, res) => {
      const context = requestContext.getStore();
      if (context) context.route = "/orders/:id";
      // A model's line inside the request carries the request's context.
      logger.info({ ...requestContext.getStore() }, "inside");
      res.send(clientAddressOf(req));
    });
    return { origin: await listen(app), lines };
  }

  it("generates the id unless a trusted proxy sent one, returns it, and logs one line with the request's facts", async () => {
    const untrusted = await loggingApp(false);
    const answer = await fetch(`${untrusted.origin}/orders/abc?token=secret-token&cart=open`, { headers: { "X-Request-Id": "from-the-client" } });
    const id = answer.headers.get("X-Request-Id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await answer.text();
    await expect.poll(() => untrusted.lines.length).toBe(2);
    const [inside, line] = untrusted.lines;
    expect(inside).toMatchObject({ requestId: id, route: "/orders/:id", msg: "inside" });
    expect(line).toMatchObject({
      msg: "request",
      requestId: id,
      route: "/orders/:id",
      method: "GET",
      path: "/orders/abc?token&cart=open",
      status: 200,
      clientAddress: "127.0.0.1",
    });
    expect(line?.bytes).toBeGreaterThan(0);
    expect(typeof line?.ms).toBe("number");
    expect(JSON.stringify(untrusted.lines)).not.toContain("secret-token");

    const trusted = await loggingApp(1);
    const behindProxy = await fetch(`${trusted.origin}/`, { headers: { "X-Request-Id": "nginx-4f2a9c", "X-Forwarded-For": "203.0.113.9" } });
    expect(behindProxy.headers.get("X-Request-Id")).toBe("nginx-4f2a9c");
    expect(await behindProxy.text()).toBe("203.0.113.9");
    const odd = await fetch(`${trusted.origin}/`, { headers: { "X-Request-Id": "not an id; rm -rf" } });
    expect(odd.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("takes the connection's address when the trusted proxy passed on something that is not one", async () => {
    const trusted = await loggingApp(1);
    const answer = await fetch(`${trusted.origin}/`, { headers: { "X-Forwarded-For": "x".repeat(8_000) } });
    expect(await answer.text()).toBe("127.0.0.1");
  });

  it("leaves the values of all but plain parameters out of the logged path", () => {
    expect(loggedPath("/order-success?session_id=cs_test_123")).toBe("/order-success?session_id");
    expect(loggedPath("/shop?category=bars&email=a%40b.c")).toBe("/shop?category=bars&email");
    expect(loggedPath(`/${"a".repeat(400)}`)).toHaveLength(301);
  });
});
