import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The operator dashboard is a separate single-page app (admin/, built by
 * Vite into admin/dist). Every /admin URL answers its index.html, so deep
 * links work; its assets are served from /admin/assets by the server.
 */
const INDEX = path.resolve("admin/dist/index.html");

let cached: string | null = null;

export async function adminAppResponse() {
  cached ??= await readFile(INDEX, "utf8").catch(() => null);
  if (!cached) {
    return new Response("The admin app is not built yet: run `npm run build`.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" });
  headers.set("X-Robots-Tag", "noindex");
  return new Response(cached, { headers });
}
