// Rendered pages kept in memory for visitors without a cart, a toast or a
// session: the shop and the landing page are the same for all of them until
// the catalogue changes (docs/decisions/016).
import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * @typedef {{ path: RegExp, parameters: Record<string, string[]> }} CacheablePage
 * @typedef {{ version: number, headers: [string, string | number | string[]][], parts: Buffer[], gzipParts: Buffer[], nonceLength: number, bytes: number }} StoredPage
 */

/**
 * The pages that may be served from the cache: their HTML depends on nothing
 * but the URL and the catalogue. A page that shows anything else (an order, a
 * token, a form's result) must never be listed here.
 *
 * With each, the query parameters it reads and the values it knows: a page is
 * kept under its path and those alone. A request with any other parameter or
 * value is rendered and not kept (X-Page-Cache: bypass), so unique URLs
 * cannot push the landing page out of the cache (decision 045).
 *
 * @type {CacheablePage[]}
 */
export const CACHEABLE_PAGES = [
  { path: /^\/$/, parameters: { partner: ["open"] } },
  { path: /^\/shop$/, parameters: { category: ["bars", "bites"], cart: ["open"] } },
  { path: /^\/shop\/[\w-]+$/, parameters: { cart: ["open"] } },
  { path: /^\/privacy$/, parameters: {} },
  { path: /^\/terms$/, parameters: {} },
];

/**
 * The key a request's page is kept under: its path and its known parameters
 * in a fixed order; null when the path is not a cacheable page, or the query
 * holds anything else (another parameter, an unknown value, a repeat).
 *
 * @param {string} path
 * @param {string} search the query as sent, without its "?"
 * @param {CacheablePage[]} [pages]
 */
export function pageKey(path, search, pages = CACHEABLE_PAGES) {
  const page = pages.find((candidate) => candidate.path.test(path));
  if (!page) return null;
  const query = new URLSearchParams(search);
  const names = [...query.keys()];
  if (new Set(names).size !== names.length) return null;
  for (const [name, value] of query) {
    if (!page.parameters[name]?.includes(value)) return null;
  }
  const known = Object.keys(page.parameters).filter((name) => query.has(name));
  return known.length === 0 ? path : `${path}?${known.map((name) => `${name}=${query.get(name)}`).join("&")}`;
}

/** The shop's own cookies (cart, toast, operator session): a request carrying one is the visitor's own. */
const SHOP_COOKIE = /(?:^|;)\s*chillpb_/;

/** Headers of the rendered response that are not stored: set per request or by the compressor. */
const UNSTORED_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "vary", "etag", "date", "connection", "keep-alive"]);

export class PageStore {
  /** @param {{ maxBytes?: number, maxEntries?: number, maxEntryBytes?: number }} [limits] */
  constructor({ maxBytes = 8 * 1024 * 1024, maxEntries = 200, maxEntryBytes = 512 * 1024 } = {}) {
    this.maxBytes = maxBytes;
    this.maxEntries = maxEntries;
    this.maxEntryBytes = maxEntryBytes;
    this.bytes = 0;
    /** @type {Map<string, StoredPage>} */
    this.entries = new Map();
  }

  /**
   * The page stored under `key` for this catalogue version, least recently used first out.
   *
   * @param {string} key
   * @param {number} version
   */
  get(key, version) {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.bytes;
      return null;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * @param {string} key
   * @param {StoredPage} entry
   */
  set(key, entry) {
    if (entry.bytes > this.maxEntryBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.bytes;
    }
  }
}

/**
 * Splits a page around its CSP nonce so that each response served from the
 * cache carries its own fresh one. Null when the nonce appears anywhere but in
 * `nonce="…"` attributes, or the page has no nonce at all.
 */
export function splitAtNonce(/** @type {string} */ html, /** @type {string} */ nonce) {
  if (!nonce) return null;
  const attribute = ` nonce="${nonce}"`;
  const parts = html.split(attribute);
  if (parts.length < 2 || html.split(nonce).length !== parts.length) return null;
  return parts.map((part) => Buffer.from(part));
}

/** The page with this nonce in every `nonce` attribute. */
export function fillNonce(/** @type {Buffer[]} */ parts, /** @type {string} */ nonce) {
  const attribute = Buffer.from(` nonce="${nonce}"`);
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [attribute, part])));
}

/**
 * The page's parts compressed once, each as raw deflate blocks that end on a
 * byte boundary (a sync flush), so that they can be joined around any nonce of
 * the same length without compressing the page again. Each part may refer back
 * to the text before it (given as its dictionary), but never into a nonce:
 * there the dictionary holds NUL bytes, which no page contains.
 */
export function compressParts(/** @type {Buffer[]} */ parts, /** @type {number} */ nonceLength) {
  const filler = Buffer.from(` nonce="${"\u0000".repeat(nonceLength)}"`);
  let before = Buffer.alloc(0);
  return parts.map((bytes, index) => {
    const options = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };
    const compressed = deflateRawSync(bytes, index === 0 ? options : { ...options, dictionary: before.subarray(-32 * 1024) });
    before = Buffer.concat([before.subarray(-32 * 1024), bytes, filler]);
    return compressed;
  });
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty final block with fixed codes: the end of the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** A stored (uncompressed) deflate block, not the last one, holding `bytes` (under 64 kB). */
function storedBlock(/** @type {Buffer} */ bytes) {
  const header = Buffer.from([0, bytes.length & 0xff, bytes.length >> 8, ~bytes.length & 0xff, (~bytes.length >> 8) & 0xff]);
  return [header, bytes];
}

/** The gzip file (RFC 1952) of the page with this nonce, made from its compressed parts. */
export function gzipWithNonce(/** @type {Buffer[]} */ parts, /** @type {Buffer[]} */ compressed, /** @type {string} */ nonce) {
  const attribute = Buffer.from(` nonce="${nonce}"`);
  /** @type {Buffer[]} */
  const pieces = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  parts.forEach((bytes, index) => {
    if (index > 0) {
      pieces.push(...storedBlock(attribute));
      crc = crc32(attribute, crc);
      size += attribute.length;
    }
    pieces.push(/** @type {Buffer} */ (compressed[index]));
    crc = crc32(bytes, crc);
    size += bytes.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  pieces.push(FINAL_BLOCK, trailer);
  return Buffer.concat(pieces);
}

/**
 * Express middleware in front of Remix. GET and HEAD of a cacheable page from
 * a visitor without any shop cookie is answered from memory when the page was
 * rendered at the catalogue's current version; otherwise Remix renders it and
 * the response is kept if it is a plain 200 HTML page that sets no cookie and
 * forbids no caching. `onServed` hears of each hit, miss and bypass.
 *
 * @param {{ catalogVersion: () => Promise<number>, store?: PageStore, pages?: CacheablePage[], onServed?: (outcome: "hit" | "miss" | "bypass") => void }} options
 * @returns {import("express").RequestHandler}
 */
export function pageCache({ catalogVersion, store = new PageStore(), pages = CACHEABLE_PAGES, onServed }) {
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (!pages.some((page) => page.path.test(req.path))) return next();
    if (SHOP_COOKIE.test(req.headers.cookie ?? "") || "_data" in req.query) return next();
    const question = req.originalUrl.indexOf("?");
    const key = pageKey(req.path, question === -1 ? "" : req.originalUrl.slice(question + 1), pages);
    if (key === null) {
      res.setHeader("X-Page-Cache", "bypass");
      onServed?.("bypass");
      return next();
    }
    /** @type {string} */
    const nonce = res.locals.cspNonce;
    let version;
    try {
      version = await catalogVersion();
    } catch {
      return next();
    }
    const entry = store.get(key, version);
    if (entry) {
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", "hit");
      onServed?.("hit");
      res.status(200);
      // Compressed ahead, so a hit costs no compression; the compressor passes encoded bodies through.
      res.vary("Accept-Encoding");
      if (req.acceptsEncodings("gzip", "identity") === "gzip" && nonce.length === entry.nonceLength) {
        res.setHeader("Content-Encoding", "gzip");
        const body = gzipWithNonce(entry.parts, entry.gzipParts, nonce);
        res.setHeader("Content-Length", body.length);
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      res.end(req.method === "HEAD" ? undefined : fillNonce(entry.parts, nonce));
      return;
    }
    const renderedAt = version;
    if (req.method === "GET") {
      keepWhenDone(res, (headers, body) => {
        const parts = splitAtNonce(body, nonce);
        if (!parts) return;
        const gzipParts = compressParts(parts, nonce.length);
        const bytes = [...parts, ...gzipParts].reduce((total, part) => total + part.length, 0);
        store.set(key, { version: renderedAt, headers, parts, gzipParts, nonceLength: nonce.length, bytes });
      });
    }
    res.setHeader("X-Page-Cache", "miss");
    onServed?.("miss");
    next();
  };
}

/**
 * A response's `write` or `end` as this module calls them: Node's overloads
 * (chunk, encoding, callback in any of their shapes) seen as one signature.
 *
 * @typedef {(this: import("express").Response, chunk?: unknown, encoding?: unknown, callback?: unknown) => unknown} Writer
 */

/**
 * Collects what Remix writes and hands it to `keep` if the finished response may be cached.
 *
 * @param {import("express").Response} res
 * @param {(headers: StoredPage["headers"], body: string) => void} keep
 */
function keepWhenDone(res, keep) {
  const before = new Set(res.getHeaderNames());
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  const write = /** @type {Writer} */ (/** @type {unknown} */ (res.write));
  const end = /** @type {Writer} */ (/** @type {unknown} */ (res.end));
  const collect = (/** @type {unknown} */ chunk, /** @type {unknown} */ encoding) => {
    if (typeof chunk !== "string" && !(chunk instanceof Uint8Array)) return;
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? /** @type {BufferEncoding} */ (encoding) : "utf8") : Buffer.from(chunk);
    size += buffer.length;
    if (size <= 1024 * 1024) chunks.push(buffer);
  };
  /** @type {Writer} */
  const collectingWrite = function (chunk, encoding, callback) {
    collect(chunk, encoding);
    return write.call(this, chunk, encoding, callback);
  };
  /** @type {Writer} */
  const collectingEnd = function (chunk, encoding, callback) {
    collect(chunk, encoding);
    res.write = /** @type {typeof res.write} */ (/** @type {unknown} */ (write));
    res.end = /** @type {typeof res.end} */ (/** @type {unknown} */ (end));
    if (cacheable(res) && size <= 1024 * 1024) {
      const headers = res
        .getHeaderNames()
        .filter((name) => !before.has(name) && !UNSTORED_HEADERS.has(name) && name !== "x-page-cache")
        .map((name) => /** @type {[string, string | number | string[]]} */ ([name, res.getHeader(name)]));
      keep(headers, Buffer.concat(chunks).toString("utf8"));
    }
    return end.call(this, chunk, encoding, callback);
  };
  res.write = /** @type {typeof res.write} */ (/** @type {unknown} */ (collectingWrite));
  res.end = /** @type {typeof res.end} */ (/** @type {unknown} */ (collectingEnd));
}

/** @param {import("express").Response} res */
function cacheable(res) {
  if (res.statusCode !== 200 || res.hasHeader("set-cookie")) return false;
  if (!String(res.getHeader("content-type") ?? "").startsWith("text/html")) return false;
  return !/no-store|private/.test(String(res.getHeader("cache-control") ?? ""));
}
