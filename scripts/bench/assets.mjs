// What a page makes a browser download, read from its HTML and CSS: the
// scripts of its first load, its fonts, its images' caching, and how its HTML
// is compressed. Sizes are bytes on the wire, as this server sends them.
import http from "node:http";
import { gunzipSync, gzipSync } from "node:zlib";

/**
 * @typedef {{ status: number | undefined, headers: import("node:http").IncomingHttpHeaders, wireBytes: number, body: Buffer }} RawResponse
 * @typedef {{ path: string, bytes: number }} SizedFile a file and its bytes on the wire
 */

/**
 * GET `path` without decoding the body. Returns the status, headers, the
 * body's bytes as sent (compressed when the server compressed it) and the
 * body decoded.
 *
 * @param {string} origin @param {string} path @param {Record<string, string>} [headers]
 * @returns {Promise<RawResponse>}
 */
export function getRaw(origin, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(path, origin), { headers }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers["content-encoding"];
        const body = encoding === "gzip" ? gunzipSync(raw) : raw;
        if (encoding && encoding !== "gzip") reject(new Error(`${path}: unexpected Content-Encoding ${encoding}`));
        else resolve({ status: response.statusCode, headers: response.headers, wireBytes: raw.length, body });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** The size of `path` as a browser that accepts gzip receives it. @param {string} origin @param {string} path */
async function gzipWireBytes(origin, path) {
  const response = await getRaw(origin, path, { "accept-encoding": "gzip" });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return response.wireBytes;
}

/** @param {string} tag @param {string} name */
const attribute = (tag, name) => new RegExp(`\\s${name}=["']([^"']*)["']`, "i").exec(tag)?.[1];
/** @param {string} origin @param {string} href */
const sameOriginPath = (origin, href) => {
  const url = new URL(href, origin);
  return url.origin === new URL(origin).origin ? url.pathname + url.search : null;
};
/** @param {string | null | undefined | false} value @returns {value is string} */
const present = (value) => Boolean(value);
/** The paths found, each once: none for an attribute missing or empty, or another origin's. @param {(string | null | undefined | false)[]} values */
const unique = (values) => [...new Set(values.filter(present))];

/**
 * The scripts a page's first load fetches: <script src>, <link rel=modulepreload>,
 * and the modules its inline module scripts import (Remix's entry script).
 *
 * @param {string} origin @param {string} html
 */
export function firstLoadScripts(origin, html) {
  /** @type {(string | undefined)[]} */
  const sources = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) sources.push(attribute(tag, "src"));
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if (/\brel=["']modulepreload["']/i.test(tag)) sources.push(attribute(tag, "href"));
  }
  for (const [, body = ""] of html.matchAll(/<script\b[^>]*type=["']module["'][^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const [, specifier] of body.matchAll(/\bimport\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+)["']/g)) sources.push(specifier);
  }
  return unique(sources.map((source) => source && sameOriginPath(origin, source)));
}

/** The stylesheets a page links. @param {string} origin @param {string} html */
export function stylesheets(origin, html) {
  /** @type {(string | undefined)[]} */
  const hrefs = [];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if (/\brel=["']stylesheet["']/i.test(tag)) hrefs.push(attribute(tag, "href"));
  }
  return unique(hrefs.map((href) => href && sameOriginPath(origin, href)));
}

/** Total gzip bytes on the wire of `paths`, with each file's size. @param {string} origin @param {string[]} paths */
export async function wireTotal(origin, paths) {
  /** @type {SizedFile[]} */
  const files = [];
  for (const path of paths) files.push({ path, bytes: await gzipWireBytes(origin, path) });
  return { bytes: files.reduce((sum, file) => sum + file.bytes, 0), files };
}

/**
 * The font files a page would load: those its stylesheets (and their
 * @imports) and inline styles reference with url(), and those it preloads.
 * An upper bound: a browser skips a face whose unicode-range or weight the
 * page never uses.
 *
 * @param {string} origin @param {string} html
 */
export async function pageFonts(origin, html) {
  /** @type {(string | null)[]} */
  const fonts = [];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const href = attribute(tag, "href");
    if (href && /\brel=["']preload["']/i.test(tag) && /\bas=["']font["']/i.test(tag)) fonts.push(sameOriginPath(origin, href));
  }
  /** @type {Set<string>} */
  const seen = new Set();
  /** @param {string} path @param {string} css */
  const readCss = async (path, css) => {
    for (const [, quoted, bare] of css.matchAll(/url\(\s*(?:["']([^"']+)["']|([^)"'\s]+))\s*\)/g)) {
      // One of the two alternatives matched.
      const target = new URL(quoted ?? bare ?? "", new URL(path, origin));
      if (/\.(woff2?|ttf|otf|eot)$/i.test(target.pathname)) fonts.push(sameOriginPath(origin, target.href));
    }
    for (const [, imported = ""] of css.matchAll(/@import\s+(?:url\()?["']([^"']+)["']/g)) {
      await follow(sameOriginPath(origin, new URL(imported, new URL(path, origin)).href));
    }
  };
  /** @param {string | null} path */
  const follow = async (path) => {
    if (!path || seen.has(path)) return;
    seen.add(path);
    const response = await getRaw(origin, path);
    await readCss(path, response.body.toString("utf8"));
  };
  for (const path of stylesheets(origin, html)) await follow(path);
  for (const [, css = ""] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) await readCss("/", css);
  const paths = unique(fonts);
  /** @type {SizedFile[]} */
  const files = [];
  for (const path of paths) {
    const response = await getRaw(origin, path, { "accept-encoding": "gzip" });
    files.push({ path, bytes: response.wireBytes });
  }
  return { bytes: files.reduce((sum, file) => sum + file.bytes, 0), files };
}

/** Every image a page shows (<img src/srcset>, <source srcset>, image preloads), same-origin only. @param {string} origin @param {string} html */
export function pageImages(origin, html) {
  /** @type {(string | undefined)[]} */
  const urls = [];
  /** @param {string | undefined} value */
  const fromSrcset = (value) => (value ?? "").split(",").map((candidate) => candidate.trim().split(/\s+/)[0]);
  for (const [tag] of html.matchAll(/<(?:img|source)\b[^>]*>/gi)) {
    urls.push(attribute(tag, "src"), ...fromSrcset(attribute(tag, "srcset")));
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if (/\brel=["']preload["']/i.test(tag) && /\bas=["']image["']/i.test(tag)) {
      urls.push(attribute(tag, "href"), ...fromSrcset(attribute(tag, "imagesrcset")));
    }
  }
  return unique(urls.map((url) => url && !url.startsWith("data:") && sameOriginPath(origin, url)));
}

/** Each image's Cache-Control, and whether its name carries a content hash. @param {string} origin @param {string[]} paths */
export async function imageCaching(origin, paths) {
  const images = [];
  for (const path of paths) {
    const response = await getRaw(origin, path);
    const cacheControl = String(response.headers["cache-control"] ?? "");
    images.push({
      path,
      status: response.status,
      cacheControl,
      immutable: /\bimmutable\b/i.test(cacheControl),
      // A content hash: 8+ letters and digits, at least one a digit, before the extension.
      fingerprinted: /[.-](?=[A-Za-z0-9_]*\d)[A-Za-z0-9_]{8,}\.[a-z0-9]+$/.test(path.split("?")[0] ?? path),
    });
  }
  return images;
}

/**
 * The page's HTML gzip-compressed as the server sent it, against the same
 * HTML gzip-compressed in one piece: a server that flushes the compressor for
 * every chunk it streams sends noticeably more.
 *
 * @param {string} origin @param {string} path
 */
export async function htmlCompression(origin, path) {
  const response = await getRaw(origin, path, { accept: "text/html", "accept-encoding": "gzip" });
  return {
    servedBytes: response.wireBytes,
    onePieceBytes: gzipSync(response.body).length,
    compressed: response.headers["content-encoding"] === "gzip",
  };
}
