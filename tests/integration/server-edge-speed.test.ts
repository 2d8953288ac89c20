import { once } from "node:events";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { answerApiRoutes, pagesOf } from "../../server/api-routes.mjs";
import { compressResponses } from "../../server/compression.mjs";
import type { ShopBuild } from "../../server/build.mjs";
import { server as msw } from "../setup/msw";

/**
 * What the HTTP edge does so that a page or an order costs less CPU
 * (issue 21 items 1 and 4): the JSON API answered without Remix's router
 * (decision 069), and a streamed page's small writes passed to the
 * compressor as one per turn of the event loop.
 */

const servers: Server[] = [];
let base: string;

/** A build with a page, two API routes and their modules, as Remix's compiler writes one. */
function fakeBuild(handleError: (error: unknown) => void) {
  const route = (id: string, path: string | undefined, module: object, parentId?: string) => ({ id, path, parentId, module });
  const routes = {
    root: route("root", "", { default: () => null }),
    "routes/shop": route("routes/shop", "shop", { default: () => null, loader: () => null }, "root"),
    "routes/functions.v1.echo": route(
      "routes/functions.v1.echo",
      "functions/v1/echo",
      {
        loader: ({ request }: { request: Request }) => Response.json({ method: request.method, query: new URL(request.url).search }),
        action: async ({ request, context }: { request: Request; context: { clientAddress: string } }) =>
          Response.json({ body: await request.json(), clientAddress: context.clientAddress }, { headers: { "X-Echo": "yes" } }),
      },
      "root",
    ),
    "routes/functions.v1.refuse": route(
      "routes/functions.v1.refuse",
      "functions/v1/refuse",
      {
        action: () => {
          throw Response.json({ error: "No." }, { status: 409 });
        },
      },
      "root",
    ),
    "routes/functions.v1.broken": route(
      "routes/functions.v1.broken",
      "functions/v1/broken",
      {
        action: () => {
          throw new Error("the database said something with alice@example.com in it");
        },
      },
      "root",
    ),
    "routes/webhooks.stripe": route("routes/webhooks.stripe", "webhooks/stripe", { action: () => ({ received: true }) }, "root"),
  };
  const assetRoutes = Object.fromEntries(Object.keys(routes).map((id) => [id, { id }]));
  return { routes, assets: { routes: assetRoutes, url: "/build/manifest.js" }, entry: { module: { handleError } } } as unknown as ShopBuild;
}

const handleError = vi.fn();
const build = fakeBuild(handleError);

beforeAll(async () => {
  const app = express();
  app.use(compressResponses());
  app.use(answerApiRoutes({ build: () => build, getLoadContext: () => ({ clientAddress: "203.0.113.9" }) }));
  // A page written as React writes one: many small chunks in one turn, then more after a pause.
  app.get("/streamed", (_req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    for (let index = 0; index < 300; index++) res.write(`<p>chunk ${index}</p>`);
    setTimeout(() => {
      for (let index = 300; index < 310; index++) res.write(Buffer.from(`<p>chunk ${index}</p>`));
      res.end("<p>end</p>");
    }, 20);
  });
  // A page rendered within one turn (a cached page, a small page rendered at once), and other answers ended at once.
  const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `<p>paragraph ${index}</p>`);
  app.get("/whole", (_req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    for (const paragraph of paragraphs(200)) res.write(paragraph);
    res.end("<p>end</p>");
  });
  app.get("/sent", (_req, res) => void res.type("html").set("Cache-Control", "no-store").send(paragraphs(100).join("")));
  app.get("/json", (_req, res) => void res.json({ lines: paragraphs(100) }));
  app.get("/small", (_req, res) => void res.type("html").send("<p>small</p>"));
  app.get("/no-transform", (_req, res) => void res.type("html").set("Cache-Control", "no-transform").send(paragraphs(100).join("")));
  app.get("/encoded", (_req, res) => void res.type("html").set("Content-Encoding", "gzip").send(zlib.gzipSync(paragraphs(100).join(""))));
  app.get("/picture", (_req, res) => void res.type("png").send(Buffer.alloc(5_000, 7)));
  app.get("/large", (_req, res) => void res.type("html").end(paragraphs(5_000).join("")));
  // What Remix would answer: the request reached it.
  app.use((_req, res) => void res.status(299).json({ remix: true }));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const server of servers) server.close();
});
beforeEach(() => {
  msw.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()));
});
afterEach(() => {
  vi.restoreAllMocks();
  handleError.mockReset();
});

/** A raw request (fetch would decode the body): status, headers and the bytes as sent. */
function send(pathname: string, { method = "GET", body, headers = {} }: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const request = httpRequest(`${base}${pathname}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const json = (body: Buffer) => JSON.parse(body.toString("utf8")) as unknown;

describe("the JSON API without Remix's router (decision 069)", () => {
  it("answers a POST from the route's action, with the request's body and the load context, and its headers", async () => {
    const answer = await send("/functions/v1/echo", { method: "POST", body: '{"a":1}', headers: { "Content-Type": "application/json" } });
    expect(answer.status).toBe(200);
    expect(answer.headers["x-echo"]).toBe("yes");
    expect(json(answer.body)).toEqual({ body: { a: 1 }, clientAddress: "203.0.113.9" });
  });

  it("answers GET from the loader, and HEAD with its headers and no body", async () => {
    expect(json((await send("/functions/v1/echo?x=1")).body)).toEqual({ method: "GET", query: "?x=1" });
    const head = await send("/functions/v1/echo", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
  });

  it("answers a thrown Response as the answer, and a thrown error 500 with { error }, reported and never shown", async () => {
    const refused = await send("/functions/v1/refuse", { method: "POST", body: "{}" });
    expect(refused.status).toBe(409);
    expect(json(refused.body)).toEqual({ error: "No." });

    const broken = await send("/functions/v1/broken", { method: "POST", body: "{}" });
    expect(broken.status).toBe(500);
    expect(broken.body.toString()).not.toContain("alice@example.com");
    expect(json(broken.body)).toEqual({ error: "Something went wrong. Please try again." });
    expect(handleError).toHaveBeenCalledTimes(1);
    expect(String(handleError.mock.calls[0]![0])).toContain("the database said something");
  });

  it("turns a value the webhook's action returns into JSON, as Remix does", async () => {
    const answer = await send("/webhooks/stripe", { method: "POST", body: "{}" });
    expect(json(answer.body)).toEqual({ received: true });
  });

  it("leaves pages, unknown functions and a method a route has no handler for to what follows (Remix, or the 405 before it)", async () => {
    for (const [pathname, method] of [
      ["/shop", "GET"],
      ["/functions/v1/nothing-here", "POST"],
      ["/functions/v1/refuse", "GET"],
      ["/functions/v1/echo", "PUT"],
    ] as const) {
      const answer = await send(pathname, { method });
      expect(answer.status, `${method} ${pathname}`).toBe(299);
    }
  });

  it("gives Remix the build without the API's routes, in its routes and its manifest, and the same object each time", () => {
    const pages = pagesOf(build);
    expect(Object.keys(pages.routes)).toEqual(["root", "routes/shop"]);
    expect(Object.keys(pages.assets.routes)).toEqual(["root", "routes/shop"]);
    expect(Object.keys(build.routes)).toHaveLength(6);
    expect(pagesOf(build)).toBe(pages);
  });
});

describe("a streamed page's writes, compressed", () => {
  it("reaches the compressor as one write per turn of the event loop, whole and in order", async () => {
    const transform = vi.spyOn(zlib.Gzip.prototype as unknown as { _transform: (...args: unknown[]) => void }, "_transform");
    const answer = await send("/streamed", { headers: { "Accept-Encoding": "gzip" } });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    const expected = `${Array.from({ length: 310 }, (_, index) => `<p>chunk ${index}</p>`).join("")}<p>end</p>`;
    expect(zlib.gunzipSync(answer.body).toString("utf8")).toBe(expected);
    // 311 writes became at most a few: the first turn's 300, the second's 10 and the end (each written one by one, 311 calls).
    expect(transform.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it("is the same page uncompressed for a client that asks for none", async () => {
    const answer = await send("/streamed");
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.toString("utf8")).toMatch(/^<p>chunk 0<\/p>.*<p>chunk 309<\/p><p>end<\/p>$/);
  });
});

describe("an answer ready at once, compressed in one call (decision 070)", () => {
  const brotliStreams = () => vi.spyOn(zlib, "createBrotliCompress");
  const gzipStreams = () => vi.spyOn(zlib, "createGzip");
  const whole = `${Array.from({ length: 200 }, (_, index) => `<p>paragraph ${index}</p>`).join("")}<p>end</p>`;

  it("sends a page written within one turn as Brotli with its length, without a compression stream", async () => {
    const streams = [brotliStreams(), gzipStreams()];
    const answer = await send("/whole", { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(answer.headers["content-length"])).toBe(answer.body.byteLength);
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
    expect(zlib.brotliDecompressSync(answer.body).toString("utf8")).toBe(whole);
    for (const stream of streams) expect(stream).not.toHaveBeenCalled();
  });

  it("uses gzip for a browser without Brotli, and for what res.send and res.json answer", async () => {
    const gzipped = await send("/whole", { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzipped.headers["content-length"])).toBe(gzipped.body.byteLength);
    expect(zlib.gunzipSync(gzipped.body).toString("utf8")).toBe(whole);

    const sent = await send("/sent", { headers: { "Accept-Encoding": "br" } });
    expect(sent.headers["content-encoding"]).toBe("br");
    expect(sent.headers["cache-control"]).toBe("no-store");
    expect(zlib.brotliDecompressSync(sent.body).toString("utf8")).toMatch(/^<p>paragraph 0<\/p>.*<p>paragraph 99<\/p>$/);

    const json = await send("/json", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(json.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(zlib.brotliDecompressSync(json.body).toString("utf8")).lines).toHaveLength(100);
  });

  it("leaves as they are what the compression middleware leaves: under 1 kB, no-transform, already encoded, not text, a HEAD, no Accept-Encoding", async () => {
    const headers = { "Accept-Encoding": "gzip, br" };
    const small = await send("/small", { headers });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString("utf8")).toBe("<p>small</p>");
    const noTransform = await send("/no-transform", { headers });
    expect(noTransform.headers["content-encoding"]).toBeUndefined();
    expect(noTransform.body.toString("utf8")).toMatch(/^<p>paragraph 0<\/p>/);
    const encoded = await send("/encoded", { headers });
    expect(encoded.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(encoded.body).toString("utf8")).toMatch(/^<p>paragraph 0<\/p>/);
    const picture = await send("/picture", { headers });
    expect(picture.headers["content-encoding"]).toBeUndefined();
    expect(picture.body.byteLength).toBe(5_000);
    const head = await send("/whole", { method: "HEAD", headers });
    expect(head.body.byteLength).toBe(0);
    const plain = await send("/whole");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(whole);
  });

  it("streams an answer larger than what it holds, as before", async () => {
    const streams = brotliStreams();
    const answer = await send("/large", { headers: { "Accept-Encoding": "br" } });
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(streams).toHaveBeenCalledTimes(1);
    expect(zlib.brotliDecompressSync(answer.body).toString("utf8")).toMatch(/<p>paragraph 4999<\/p>$/);
  });
});
