import { once } from "node:events";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { compressResponses } from "../../server/compression.mjs";
import { server as msw } from "../setup/msw";

/**
 * What the HTTP edge does so that a page or an order costs less CPU
 * (issue 21 item 4): a streamed page's small writes passed to the
 * compressor as one per turn of the event loop.
 */

const servers: Server[] = [];
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(compressResponses());
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
  app.get(
    "/encoded",
    (_req, res) =>
      void res
        .type("html")
        .set("Content-Encoding", "gzip")
        .send(zlib.gzipSync(paragraphs(100).join(""))),
  );
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
