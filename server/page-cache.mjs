// Rendered pages kept in memory for visitors without a cart, a toast or a
// session: the shop and the landing page are the same for all of them until
// the catalogue changes (docs/decisions/016).
import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * @typedef {{ path: RegExp, parameters: Record<string, string[]> }} CacheablePage
 * @typedef {{ parts: Buffer[], slots: number[], compressed: Map<string, Buffer>, compressedBytes: number, compressedLimit: number, partCrcs?: number[] }} CutPage
 *   a page cut at its slots (`slots[i]` sits between `parts[i]` and `parts[i + 1]`), and its parts compressed for
 *   the lengths its slots' texts have had (compressedPart), up to `compressedLimit` bytes of them
 * @typedef {{ version: number, headers: [string, string | number | string[]][], shared: CutPage, visitor: CutPage | null, nonceLength: number, bytes: number }} StoredPage
 *   `shared` is cut at its nonces only, so that it compresses as well as the whole page for every visitor without a
 *   cart; `visitor` is cut at the visitor's parts too (null when the page cannot be made a visitor's own)
 * @typedef {{ anonymous: string[], visitor: (cookie: string, search: string) => Promise<string[] | null> }} VisitorParts
 *   the parts of a page that are a visitor's own (decision 060): how they read for a visitor without a cart, and a
 *   visitor's own for a request's cookies and query, or null when the page must be rendered for them
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

/** In a page's template, the place of a ` nonce="…"` attribute (any other slot is the index of a visitor's part). */
export const NONCE = -1;

/**
 * Splits a page around its CSP nonce, so that each response served from the
 * cache carries its own fresh one, and around the parts that belong to a
 * visitor (`anonymous`: how they read for a visitor without a cart), so that
 * a visitor's own can take their place (decision 060). `slots[i]` is what sits
 * between `parts[i]` and `parts[i + 1]`. Null when the nonce appears anywhere
 * but in `nonce="…"` attributes, or the page has no nonce at all. A page that
 * holds none of the visitor's parts, or one of them twice or overlapping
 * another, is split at its nonces only and is not `personalisable`.
 *
 * @param {string} html
 * @param {string} nonce
 * @param {string[]} [anonymous]
 * @returns {{ parts: Buffer[], slots: number[], personalisable: boolean } | null}
 */
export function splitPage(html, nonce, anonymous = []) {
  if (!nonce) return null;
  const attribute = ` nonce="${nonce}"`;
  const nonces = html.split(attribute).length - 1;
  if (nonces === 0 || html.split(nonce).length - 1 !== nonces) return null;
  /** @type {{ at: number, length: number, slot: number }[]} */
  const cuts = [];
  for (let at = html.indexOf(attribute); at !== -1; at = html.indexOf(attribute, at + attribute.length))
    cuts.push({ at, length: attribute.length, slot: NONCE });
  /** @type {{ at: number, length: number, slot: number }[]} */
  const visitorCuts = [];
  let personalisable = anonymous.length > 0;
  anonymous.forEach((text, slot) => {
    const at = text ? html.indexOf(text) : -1;
    if (at === -1) return;
    if (html.indexOf(text, at + 1) !== -1) personalisable = false;
    visitorCuts.push({ at, length: text.length, slot });
  });
  if (visitorCuts.length === 0) personalisable = false;
  const all = [...cuts, ...visitorCuts].sort((a, b) => a.at - b.at);
  if (all.some((cut, index) => index > 0 && cut.at < /** @type {typeof cut} */ (all[index - 1]).at + /** @type {typeof cut} */ (all[index - 1]).length))
    personalisable = false;
  const used = personalisable ? all : cuts;
  /** @type {Buffer[]} */
  const parts = [];
  let from = 0;
  for (const cut of used) {
    parts.push(Buffer.from(html.slice(from, cut.at)));
    from = cut.at + cut.length;
  }
  parts.push(Buffer.from(html.slice(from)));
  return { parts, slots: used.map((cut) => cut.slot), personalisable };
}

/**
 * The page with this nonce in every `nonce` attribute and these texts in the visitor's slots.
 *
 * @param {{ parts: Buffer[], slots: number[] }} template
 * @param {string} nonce
 * @param {Buffer[]} fills what goes in each visitor's slot, by its index
 */
export function fillPage({ parts, slots }, nonce, fills) {
  const attribute = Buffer.from(` nonce="${nonce}"`);
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [slotText(/** @type {number} */ (slots[index - 1]), attribute, fills), part])));
}

/**
 * @param {number} slot
 * @param {Buffer} attribute
 * @param {Buffer[]} fills
 */
function slotText(slot, attribute, fills) {
  if (slot === NONCE) return attribute;
  const fill = fills[slot];
  if (!fill) throw new Error(`No text for the page's slot ${slot}`);
  return fill;
}

/** A visitor's page keeps compressed parts for the lengths their texts have had up to this many times the size of the page compressed for everyone, then starts again. */
const VISITOR_COMPRESSED_SHARE = 8;

/**
 * A page's part `index` as raw deflate blocks that end on a byte boundary (a
 * sync flush), so that the parts can be joined around their slots' texts
 * without compressing the page again. The part may refer back to the text
 * before it (given as its dictionary) but never into a slot: there the
 * dictionary holds NUL bytes, which no page contains. So it serves any texts
 * of the slots' lengths: a page compresses once per nonce length (always the
 * same), and once per length of the visitor's texts before the part (a few
 * for the cart's count, one per length of a cart's data for the end of the
 * page's data), kept in `page.compressed`.
 *
 * @param {CutPage} page
 * @param {number} index
 * @param {number[]} slotLengths the length of the text in each slot, by position
 */
export function compressedPart(page, index, slotLengths) {
  const key = `${index}:${slotLengths.slice(0, index).join(",")}`;
  let compressed = page.compressed.get(key);
  if (compressed) return compressed;
  /** @type {Buffer[]} */
  const before = [];
  let size = 0;
  for (let previous = index - 1; previous >= 0 && size < 32 * 1024; previous -= 1) {
    const part = /** @type {Buffer} */ (page.parts[previous]);
    before.unshift(part, Buffer.alloc(/** @type {number} */ (slotLengths[previous])));
    size += part.length + /** @type {number} */ (slotLengths[previous]);
  }
  const dictionary = Buffer.concat(before).subarray(-32 * 1024);
  const options = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };
  compressed = deflateRawSync(/** @type {Buffer} */ (page.parts[index]), dictionary.length === 0 ? options : { ...options, dictionary });
  if (page.compressedBytes + compressed.length > page.compressedLimit) {
    page.compressed.clear();
    page.compressedBytes = 0;
  }
  page.compressed.set(key, compressed);
  page.compressedBytes += compressed.length;
  return compressed;
}

/** A visitor's text as raw deflate blocks ending on a byte boundary, to join between a page's compressed parts. */
export function compressFill(/** @type {Buffer} */ text) {
  return deflateRawSync(text, { level: 6, finishFlush: constants.Z_SYNC_FLUSH });
}

/** CRC-32's polynomial, bits reversed (as zlib and gzip use it). */
const CRC_POLYNOMIAL = 0xedb88320;

/** a(x) · b(x) modulo the CRC-32 polynomial, bits reversed (zlib's multmodp). */
function multiplyModP(/** @type {number} */ a, /** @type {number} */ b) {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) product ^= b;
    b = b & 1 ? (b >>> 1) ^ CRC_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0…31 (zlib's x2n_table). */
const X_TO_2_TO_K = (() => {
  const table = [0x40000000];
  for (let k = 1; k < 32; k++) table.push(multiplyModP(/** @type {number} */ (table[k - 1]), /** @type {number} */ (table[k - 1])));
  return table;
})();

/**
 * The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length
 * (zlib's crc32_combine, which Node does not expose): a page's parts are
 * the same in every response, so their CRCs are taken once, and a response
 * runs CRC-32 over the texts in its slots only. Over the whole page it was
 * 6% of the CPU of a page served from the cache.
 */
export function crc32Combine(/** @type {number} */ crcA, /** @type {number} */ crcB, /** @type {number} */ lengthB) {
  // x^(8 · lengthB) modulo the polynomial: B's length in bits, as powers of x^(2^k).
  let shift = 0x80000000;
  for (let k = 3, n = lengthB; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) shift = multiplyModP(/** @type {number} */ (X_TO_2_TO_K[k % 32]), shift);
  }
  return (multiplyModP(shift, crcA) ^ crcB) >>> 0;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty final block with fixed codes: the end of the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** A stored (uncompressed) deflate block, not the last one, holding `bytes` (under 64 kB). */
function storedBlock(/** @type {Buffer} */ bytes) {
  const header = Buffer.from([0, bytes.length & 0xff, bytes.length >> 8, ~bytes.length & 0xff, (~bytes.length >> 8) & 0xff]);
  return [header, bytes];
}

/**
 * The gzip file (RFC 1952) of the page with this nonce and these texts in the
 * visitor's slots, made from its compressed parts and the texts' own.
 *
 * @param {CutPage} page
 * @param {string} nonce
 * @param {Buffer[]} fills the texts for the visitor's slots
 */
export function gzipPage(page, nonce, fills) {
  const attribute = Buffer.from(` nonce="${nonce}"`);
  const texts = page.slots.map((slot) => slotText(slot, attribute, fills));
  const lengths = texts.map((text) => text.length);
  /** @type {Buffer[]} */
  const pieces = [GZIP_HEADER];
  const partCrcs = (page.partCrcs ??= page.parts.map((bytes) => crc32(bytes)));
  let crc = 0;
  let size = 0;
  page.parts.forEach((bytes, index) => {
    if (index > 0) {
      const text = /** @type {Buffer} */ (texts[index - 1]);
      if (page.slots[index - 1] === NONCE) pieces.push(...storedBlock(text));
      else pieces.push(compressFill(text));
      crc = crc32(text, crc);
      size += text.length;
    }
    pieces.push(compressedPart(page, index, lengths));
    crc = crc32Combine(crc, /** @type {number} */ (partCrcs[index]), bytes.length);
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
 * forbids no caching. A visitor with a cart gets the same kept page with their
 * own parts in it (`visitorParts`, decision 060), or, when it has none to
 * give or their cookies ask for more, a page Remix renders for them, never
 * kept. `onServed` hears of each hit, filled hit, miss and bypass.
 *
 * @param {{ catalogVersion: () => Promise<number>, store?: PageStore, pages?: CacheablePage[], visitorParts?: VisitorParts, onServed?: (outcome: "hit" | "filled" | "miss" | "bypass") => void }} options
 * @returns {import("express").RequestHandler}
 */
export function pageCache({ catalogVersion, store = new PageStore(), pages = CACHEABLE_PAGES, visitorParts, onServed }) {
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (!pages.some((page) => page.path.test(req.path))) return next();
    if ("_data" in req.query) return next();
    const cookie = req.headers.cookie ?? "";
    const own = SHOP_COOKIE.test(cookie);
    if (own && !visitorParts) return next();
    const question = req.originalUrl.indexOf("?");
    const search = question === -1 ? "" : req.originalUrl.slice(question + 1);
    const key = pageKey(req.path, search, pages);
    if (key === null) {
      if (own) return next();
      res.setHeader("X-Page-Cache", "bypass");
      onServed?.("bypass");
      return next();
    }
    /** @type {string} */
    const nonce = res.locals.cspNonce;
    let version;
    /** @type {Buffer[] | null} */
    let fills = [];
    try {
      const [current, theirs] = await Promise.all([catalogVersion(), own ? /** @type {VisitorParts} */ (visitorParts).visitor(cookie, search) : null]);
      version = current;
      if (own) fills = theirs && theirs.length === visitorParts?.anonymous.length ? theirs.map((text) => Buffer.from(text)) : null;
    } catch {
      return next();
    }
    // Their cookies ask for more than their cart (a message to show, an order to settle): Remix renders the page for them.
    if (!fills) return next();
    const entry = store.get(key, version);
    const template = own ? entry?.visitor : entry?.shared;
    if (entry && template) {
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", own ? "filled" : "hit");
      onServed?.(own ? "filled" : "hit");
      res.status(200);
      // Compressed ahead, so a hit costs no compression (a visitor's few parts aside); the compressor passes encoded bodies through.
      res.vary("Accept-Encoding");
      if (req.acceptsEncodings("gzip", "identity") === "gzip" && nonce.length === entry.nonceLength) {
        res.setHeader("Content-Encoding", "gzip");
        const body = gzipPage(template, nonce, fills);
        res.setHeader("Content-Length", body.length);
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      res.end(req.method === "HEAD" ? undefined : fillPage(template, nonce, fills));
      return;
    }
    // A visitor's own page is never kept: the next visitor without a cart renders the one all share.
    if (own) return next();
    const renderedAt = version;
    if (req.method === "GET") {
      keepWhenDone(res, (headers, body) => {
        const shared = splitPage(body, nonce);
        const visitor = visitorParts ? splitPage(body, nonce, visitorParts.anonymous) : null;
        if (!shared) return;
        const sum = (/** @type {Buffer[]} */ buffers) => buffers.reduce((total, buffer) => total + buffer.length, 0);
        /** @type {{ shared: CutPage, visitor: CutPage | null }} */
        const pages = {
          shared: { parts: shared.parts, slots: shared.slots, compressed: new Map(), compressedBytes: 0, compressedLimit: Infinity },
          visitor: null,
        };
        // Compressed ahead for a visitor without a cart, so that a hit costs no compression.
        gzipPage(pages.shared, nonce, []);
        pages.shared.compressedLimit = pages.shared.compressedBytes;
        if (visitor?.personalisable) {
          const compressedLimit = VISITOR_COMPRESSED_SHARE * pages.shared.compressedBytes;
          pages.visitor = { parts: visitor.parts, slots: visitor.slots, compressed: new Map(), compressedBytes: 0, compressedLimit };
        }
        const bytes = sum(pages.shared.parts) + pages.shared.compressedLimit + (pages.visitor ? sum(pages.visitor.parts) + pages.visitor.compressedLimit : 0);
        store.set(key, { version: renderedAt, headers, ...pages, nonceLength: nonce.length, bytes });
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
    const buffer =
      typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? /** @type {BufferEncoding} */ (encoding) : "utf8") : Buffer.from(chunk);
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
