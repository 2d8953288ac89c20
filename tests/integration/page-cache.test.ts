import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import compression from "compression";
import express from "express";
import fc from "fast-check";
import { http, passthrough } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PageStore, fillPage, pageCache, splitPage } from "../../server/page-cache.mjs";
import { server as msw } from "../setup/msw";

const nonceA = "Ab3+/Zx9Qw1Er5Ty7Ui0Op==";
const nonceB = "Zz9+/Yy8Xx7Ww6Vv5Uu4Tt==";

function page(nonce: string, body = `<h1>Shop</h1>${"<p>Creamy organic Greek yogurt swirled with peanut butter.</p>".repeat(40)}`) {
  return (
    `<!DOCTYPE html><html><head><title>Shop</title></head><body>${body}` +
    `<script nonce="${nonce}">restore()</script><script nonce="${nonce}">window.data = {"cart":null};</script>` +
    `<script nonce="${nonce}" type="module">import("/build/entry.js")</script></body></html>`
  );
}

describe("a kept page and its nonce (server/page-cache.mjs)", () => {
  it("is joined around each response's own nonce, and is the page as rendered with it", () => {
    const parts = splitPage(page(nonceA), nonceA)!;
    expect(parts).toHaveLength(4);
    expect(fillPage(parts, nonceB).toString()).toBe(page(nonceB));
  });

  it("is the page with any nonce, whatever else the page holds", () => {
    fc.assert(
      fc.property(fc.string(), fc.base64String({ minLength: 8, maxLength: 32 }), (text, nonce) => {
        const html = page(nonceA, text.replaceAll(nonceA, ""));
        const parts = splitPage(html, nonceA);
        expect(parts).not.toBeNull();
        expect(fillPage(parts!, nonce).toString()).toBe(html.replaceAll(` nonce="${nonceA}"`, ` nonce="${nonce}"`));
      }),
    );
  });

  it("is not kept when the nonce is missing or appears outside a nonce attribute", () => {
    expect(splitPage("<p>no scripts</p>", nonceA)).toBeNull();
    expect(splitPage(page(nonceA), "")).toBeNull();
    expect(splitPage(page(nonceA, `<p>${nonceA}</p>`), nonceA)).toBeNull();
  });
});

describe("the page store", () => {
  const entry = (version: string, bytes: number) => ({ version, status: 200, headers: [], parts: [], bytes });

  it("answers only for the version a page was rendered at", () => {
    const store = new PageStore();
    store.set("/shop", entry("b1:3", 10));
    expect(store.get("/shop", "b1:4")).toBeNull();
    // A miss for a newer version drops the old page.
    expect(store.get("/shop", "b1:3")).toBeNull();
    store.set("/shop", entry("b1:4", 10));
    expect(store.get("/shop", "b1:4")).toMatchObject({ version: "b1:4" });
    expect(store.get("/shop", "b2:4")).toBeNull();
  });

  it("stays within its bounds, least recently used out first", () => {
    const store = new PageStore({ maxBytes: 100, maxEntries: 3, maxEntryBytes: 60 });
    store.set("/a", entry("1", 30));
    store.set("/b", entry("1", 30));
    store.set("/c", entry("1", 30));
    store.get("/a", "1");
    store.set("/d", entry("1", 30));
    expect(store.get("/b", "1")).toBeNull();
    expect(store.get("/a", "1")).not.toBeNull();
    store.set("/big", entry("1", 61));
    expect(store.get("/big", "1")).toBeNull();
    store.set("/e", entry("1", 50));
    expect(store.bytes).toBeLessThanOrEqual(100);
    expect(store.entries.size).toBeLessThanOrEqual(3);
  });
});

describe("the page cache in front of Remix's handler", () => {
  let server: Server | undefined;
  // These apps listen on this machine; MSW lets requests to them through.
  beforeEach(() => msw.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough())));
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** An app as server/app.mjs makes it, with a stand-in for Remix's handler that counts its renders. */
  async function shop({
    answer = (_request: Request, nonce: string) => new Response(page(nonce), { headers: { "Content-Type": "text/html; charset=utf-8" } }),
    // What server/app.mjs reads from the routes (server/routes.mjs): here, any path under /nope is claimed by no route.
    notFound = (path: string) => path.startsWith("/nope"),
  } = {}) {
    const state = { version: "b1:1", renders: [] as Request[], versionFails: false, outcomes: [] as string[], passedOn: 0 };
    let nonces = 0;
    const app = express();
    app.use(compression());
    app.use((_req, res, next) => {
      res.locals.cspNonce = `nonce${++nonces}`;
      next();
    });
    app.use(
      pageCache({
        render: async (request, context) => {
          state.renders.push(request);
          return answer(request, String(context.cspNonce));
        },
        getLoadContext: (_req, res) => ({ clientAddress: "127.0.0.1", cspNonce: String(res.locals.cspNonce) }),
        version: async () => {
          if (state.versionFails) throw new Error("the database is away");
          return state.version;
        },
        notFound: (req) => notFound(req.path),
        onServed: (outcome, served) => state.outcomes.push(served.notFound ? `${outcome} 404 ${served.path}` : outcome),
      }),
    );
    app.use((_req, res) => {
      state.passedOn += 1;
      res.send("rendered by Remix's own handler");
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { state, get: (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, init) };
  }

  it("renders a page once, then answers it from memory with each response's own nonce, compressed", async () => {
    const { state, get } = await shop();
    const first = await get("/shop");
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(await first.text()).toBe(page("nonce1"));
    const second = await get("/shop", { headers: { "Accept-Encoding": "gzip" } });
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("content-encoding")).toBe("gzip");
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await second.text()).toBe(page("nonce2"));
    expect(state.renders).toHaveLength(1);
    expect(state.renders[0]!.url).toMatch(/\/shop$/);
    expect(state.outcomes).toEqual(["miss", "hit"]);
    const head = await get("/shop", { method: "HEAD" });
    expect(head.headers.get("x-page-cache")).toBe("hit");
    expect(await head.text()).toBe("");
  });

  it("renders again once the version changes (the catalogue, or a new build)", async () => {
    const { state, get } = await shop();
    await get("/");
    state.version = "b1:2";
    expect((await get("/")).headers.get("x-page-cache")).toBe("miss");
    state.version = "b2:2";
    expect((await get("/")).headers.get("x-page-cache")).toBe("miss");
    expect((await get("/")).headers.get("x-page-cache")).toBe("hit");
    expect(state.renders).toHaveLength(3);
  });

  it("leaves to Remix's own handler a visitor with a shop cookie, another method, a page not listed, and a database that is away", async () => {
    const { state, get } = await shop();
    await get("/shop");
    expect((await get("/shop", { headers: { Cookie: "theme=dark; chillpb_cart=abc" } })).headers.get("x-page-cache")).toBeNull();
    expect((await get("/shop", { method: "POST" })).headers.get("x-page-cache")).toBeNull();
    expect((await get("/checkout")).headers.get("x-page-cache")).toBeNull();
    state.versionFails = true;
    expect(await (await get("/shop")).text()).toBe("rendered by Remix's own handler");
    expect(state.passedOn).toBe(4);
    expect(state.renders).toHaveLength(1);
  });

  it("renders the page not found once and answers every path no route claims from it, 404, whatever its query", async () => {
    const notFoundPage = (nonce: string) => page(nonce, "<h1>Oops! Page not found</h1>");
    const { state, get } = await shop({
      answer: (request, nonce) =>
        new URL(request.url).pathname.startsWith("/nope")
          ? new Response(notFoundPage(nonce), { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } })
          : new Response(page(nonce), { headers: { "Content-Type": "text/html; charset=utf-8" } }),
    });
    const first = await get("/nope/wp-login.php");
    expect([first.status, first.headers.get("x-page-cache")]).toEqual([404, "miss"]);
    expect(await first.text()).toBe(notFoundPage("nonce1"));
    // A scan's thousand paths and queries: one render, each answer with its own nonce.
    for (const [index, path] of ["/nope-a", "/nope/b/c?x=1&x=2", "/nope-%F0%9F%8D%A6?utm_source=mail"].entries()) {
      const again = await get(path);
      expect([again.status, again.headers.get("x-page-cache")], path).toEqual([404, "hit"]);
      expect(await again.text(), path).toBe(notFoundPage(`nonce${index + 2}`));
    }
    expect(state.renders).toHaveLength(1);
    // Each path is told to the log (server/app.mjs), as the catch-all's loader tells it when it renders.
    expect(state.outcomes).toEqual(["miss 404 /nope/wp-login.php", "hit 404 /nope-a", "hit 404 /nope/b/c", "hit 404 /nope-%F0%9F%8D%A6"]);
    // The kept 404 is not a page's: a listed page is rendered as its own.
    expect(await (await get("/shop")).text()).toBe(page("nonce5"));
    // A visitor with a cart, a single-fetch data request and a POST are Remix's, as for any page.
    await get("/nope-a", { headers: { Cookie: "chillpb_cart=abc" } });
    await get("/nope-a.data");
    await get("/nope-a", { method: "POST" });
    expect(state.passedOn).toBe(3);
  });

  it("does not keep what a path no route claims answered when it was not the page not found (a database away: 503)", async () => {
    const { state, get } = await shop({
      answer: (_request, nonce) => new Response(page(nonce), { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }),
    });
    expect((await get("/nope-a")).status).toBe(503);
    expect([(await get("/nope-a")).status, (await get("/nope-b")).headers.get("x-page-cache")]).toEqual([503, "miss"]);
    expect(state.renders).toHaveLength(3);
  });

  it("does not keep a page for an unknown query, and leaves it to Remix", async () => {
    const { state, get } = await shop();
    const answer = await get("/shop?utm_source=mail");
    expect(answer.headers.get("x-page-cache")).toBe("bypass");
    expect(state.passedOn).toBe(1);
    expect(state.outcomes).toEqual(["bypass"]);
  });

  it("sends but never keeps an answer that is not a plain page: an error, a cookie, no-store, a page without a nonce", async () => {
    const answers: Record<string, (nonce: string) => Response> = {
      "/shop/missing": (nonce) => new Response(page(nonce), { status: 404, headers: { "Content-Type": "text/html" } }),
      "/shop/cookie": (nonce) => new Response(page(nonce), { headers: { "Content-Type": "text/html", "Set-Cookie": "chillpb_toast=x" } }),
      "/shop/private": (nonce) => new Response(page(nonce), { headers: { "Content-Type": "text/html", "Cache-Control": "private, no-store" } }),
      "/shop/plain": () => new Response("<p>no scripts</p>", { headers: { "Content-Type": "text/html" } }),
    };
    const { state, get } = await shop({ answer: (request, nonce) => answers[new URL(request.url).pathname]!(nonce) });
    for (const path of Object.keys(answers)) {
      const first = await get(path);
      const again = await get(path);
      expect(again.headers.get("x-page-cache"), path).toBe("miss");
      expect(again.status, path).toBe(first.status);
    }
    expect((await get("/shop/missing")).status).toBe(404);
    expect((await get("/shop/cookie")).headers.get("set-cookie")).toBe("chillpb_toast=x");
    expect(state.renders).toHaveLength(Object.keys(answers).length * 2 + 2);
  });
});
