import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { request as httpRequest } from "node:http";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import compression from "compression";
import { precompressedAssets } from "../../server/precompressed-assets.mjs";
import { precompress, precompressAssets } from "../../scripts/precompress.mjs";
import { server as msw } from "../setup/msw";

/**
 * Assets compressed once, at build time (decision 056): the server sends the
 * Brotli or gzip copy as a file, byte for byte, with the original's type and
 * `Vary: Accept-Encoding`, and never runs a compressor on these files; Brotli
 * is never larger than gzip.
 */

let folder: string;
let base: string;
const servers: Server[] = [];
const script = `export const greeting = ${JSON.stringify("frozen peanut butter ".repeat(400))};\n`;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), "chillpb-assets-"));
  mkdirSync(path.join(folder, "_shared"));
  writeFileSync(path.join(folder, "_shared", "chunk-TEST.js"), script);
  writeFileSync(path.join(folder, "tiny.css"), "a{}");
  writeFileSync(path.join(folder, "font.woff2"), Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3]));
  expect(precompressAssets([folder])).toBe(2);
  const app = express();
  app.use(compression());
  app.use("/build", precompressedAssets(folder), express.static(folder, { immutable: true, maxAge: "1y" }));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const server of servers) server.close();
  rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
  msw.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()));
});

/** A raw GET (fetch would decode the body): status, headers and the bytes as sent. */
function get(pathname: string, acceptEncoding: string | null, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const request = httpRequest(`${base}${pathname}`, { method, headers: acceptEncoding === null ? {} : { "Accept-Encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end();
  });
}

const file = (name: string) => path.join(folder, name);

describe("assets compressed at build time", () => {
  it("Brotli for a browser that takes it: the .br file's bytes, the script's type, cached for a year", async () => {
    const answer = await get("/build/_shared/chunk-TEST.js", "gzip, deflate, br, zstd");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.body.equals(readFileSync(file("_shared/chunk-TEST.js.br")))).toBe(true);
    expect(Number(answer.headers["content-length"])).toBe(statSync(file("_shared/chunk-TEST.js.br")).size);
  });

  it("gzip for one that takes only gzip; the file itself for one that takes neither", async () => {
    const gzip = await get("/build/_shared/chunk-TEST.js", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body.equals(readFileSync(file("_shared/chunk-TEST.js.gz")))).toBe(true);
    const plain = await get("/build/_shared/chunk-TEST.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it("HEAD answers the same headers without a body", async () => {
    const head = await get("/build/_shared/chunk-TEST.js", "br", "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
  });

  it("what is not worth compressing is served as it is, and not compressed per request either", async () => {
    expect(existsSync(file("tiny.css.gz"))).toBe(false);
    expect(existsSync(file("font.woff2.br"))).toBe(false);
    const font = await get("/build/font.woff2", "br, gzip");
    expect(font.headers["content-encoding"]).toBeUndefined();
    expect(font.body.length).toBe(7);
  });

  it("a path outside the folder is not served", async () => {
    expect((await get("/build/..%2f..%2fetc%2fpasswd", "br")).status).toBe(404);
  });

  it("Brotli is never larger than gzip, for every asset of the real build", () => {
    const chunk = precompress(file("_shared/chunk-TEST.js"));
    expect(chunk.brotli).not.toBeNull();
    expect(chunk.brotli!).toBeLessThan(chunk.gzip!);
    for (const folderOfBuild of ["public/build/_shared", "admin/dist/assets"]) {
      if (!existsSync(folderOfBuild)) continue;
      for (const name of readdirSync(folderOfBuild)) {
        if (!name.endsWith(".br")) continue;
        const original = path.join(folderOfBuild, name.slice(0, -3));
        const gz = `${original}.gz`;
        if (existsSync(gz)) expect(statSync(path.join(folderOfBuild, name)).size, name).toBeLessThan(statSync(gz).size);
      }
    }
  });
});
