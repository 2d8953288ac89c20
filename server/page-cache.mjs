// Whole pages kept in memory for visitors without a cart, a toast or a
// session: the landing page, the shop, a product and the two policies are the
// same for all of them until the catalogue or the build changes (decisions
// 016 and 089). Each response still carries its own CSP nonce: a kept page is
// stored cut at its nonce attributes and joined around the request's own, the
// only splice. The `compression` middleware compresses it like any answer.

/**
 * @typedef {{ path: RegExp, parameters: Record<string, string[]> }} CacheablePage
 * @typedef {{ version: string, status: number, headers: [string, string][], parts: Buffer[], bytes: number }} StoredPage
 *   a page rendered at `version` (the build's and the catalogue's), cut at its nonce attributes, and its status
 * @typedef {(request: Request, loadContext: import("@remix-run/node").AppLoadContext) => Promise<Response>} RenderPage
 *   Remix's request handler (@remix-run/node's createRequestHandler)
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

/**
 * The key the one "page not found" is kept under: every path no route claims
 * (the catch-all's 404) renders the same page, whatever the path and query,
 * so a scan of a thousand unknown paths renders it once (issue 38, item 6).
 */
export const NOT_FOUND_KEY = "404";

/** The shop's own cookies (cart, toast, operator session): a request carrying one is the visitor's own. */
const SHOP_COOKIE = /(?:^|;)\s*chillpb_/;

/** Headers of the rendered response that are not stored: set per request, by Express or by the compressor. */
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
   * @param {string} version
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
 * A page cut around its CSP nonce attributes, so that each response served
 * from the cache carries its own fresh one; null when the nonce appears
 * anywhere but in ` nonce="…"` attributes, or the page has none at all.
 *
 * @param {string} html
 * @param {string} nonce
 * @returns {Buffer[] | null}
 */
export function splitPage(html, nonce) {
  if (!nonce) return null;
  const parts = html.split(` nonce="${nonce}"`);
  if (parts.length === 1 || html.split(nonce).length !== parts.length) return null;
  return parts.map((part) => Buffer.from(part));
}

/**
 * The page with this nonce in every `nonce` attribute.
 *
 * @param {Buffer[]} parts
 * @param {string} nonce
 */
export function fillPage(parts, nonce) {
  const attribute = Buffer.from(` nonce="${nonce}"`);
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [attribute, part])));
}

/**
 * The request as Remix's handler takes it, as @remix-run/express makes it for
 * a GET or a HEAD: the URL as sent (behind the proxies Express trusts), the
 * headers, and a signal that aborts the loaders if the visitor goes away.
 *
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 */
function fetchRequestOf(req, res) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return new Request(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`, { method: req.method, headers, signal: controller.signal });
}

/** @param {Response} response @param {number} status what the page answers: 200, or 404 for the one not found */
function keepable(response, status) {
  if (response.status !== status || response.headers.has("set-cookie")) return false;
  if (!(response.headers.get("content-type") ?? "").startsWith("text/html")) return false;
  return !/no-store|private/.test(response.headers.get("cache-control") ?? "");
}

/**
 * Express middleware in front of Remix's. GET and HEAD of a cacheable page
 * from a visitor without any shop cookie is answered from memory when the page
 * was rendered at the current `version` (the build's and the catalogue's);
 * otherwise Remix's handler (`render`) renders it here, and it is kept if it is
 * a plain 200 HTML page that sets no cookie and forbids no caching. A path
 * no route claims (`notFound`) is answered likewise from the one kept 404
 * page (NOT_FOUND_KEY), whatever its query; a single-fetch data request
 * (`.data`) is left to Remix, which answers it in its own format. A visitor
 * with a shop cookie (a cart, a message, a session) and an unknown query go on
 * to Remix's own handler. `onServed` hears of each hit, miss and bypass, and
 * whether it was the page not found.
 *
 * @param {{
 *   render: RenderPage,
 *   getLoadContext: import("@remix-run/express").GetLoadContextFunction,
 *   version: () => Promise<string>,
 *   store?: PageStore,
 *   pages?: CacheablePage[],
 *   notFound?: (req: import("express").Request, res: import("express").Response) => boolean,
 *   onServed?: (outcome: "hit" | "miss" | "bypass", page: { notFound: boolean, path: string }) => void,
 * }} options
 * @returns {import("express").RequestHandler}
 */
export function pageCache({ render, getLoadContext, version, store = new PageStore(), pages = CACHEABLE_PAGES, notFound = () => false, onServed }) {
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const listed = pages.some((page) => page.path.test(req.path));
    const missing = !listed && !req.path.endsWith(".data") && notFound(req, res);
    if (!listed && !missing) return next();
    if (SHOP_COOKIE.test(req.headers.cookie ?? "")) return next();
    const served = (/** @type {"hit" | "miss" | "bypass"} */ outcome) => onServed?.(outcome, { notFound: missing, path: req.path });
    const question = req.originalUrl.indexOf("?");
    const key = missing ? NOT_FOUND_KEY : pageKey(req.path, question === -1 ? "" : req.originalUrl.slice(question + 1), pages);
    const status = missing ? 404 : 200;
    if (key === null) {
      res.setHeader("X-Page-Cache", "bypass");
      served("bypass");
      return next();
    }
    /** @type {string} */
    const nonce = res.locals.cspNonce;
    let current;
    try {
      current = await version();
    } catch {
      // The catalogue's version cannot be read (the database is away): Remix's own handler answers as it can.
      return next();
    }
    try {
      const entry = store.get(key, current);
      if (entry) {
        for (const [name, value] of entry.headers) res.append(name, value);
        res.setHeader("X-Page-Cache", "hit");
        served("hit");
        res.status(entry.status).send(fillPage(entry.parts, nonce));
        return;
      }
      const response = await render(fetchRequestOf(req, res), await getLoadContext(req, res));
      const body = Buffer.from(await response.arrayBuffer());
      /** @type {[string, string][]} */
      const headers = [...response.headers].filter(([name]) => !UNSTORED_HEADERS.has(name));
      if (req.method === "GET" && keepable(response, status)) {
        const parts = splitPage(body.toString("utf8"), nonce);
        if (parts) store.set(key, { version: current, status, headers, parts, bytes: body.length });
      }
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [name, value] of headers) res.append(name, value);
      res.setHeader("X-Page-Cache", "miss");
      served("miss");
      res.send(body);
    } catch (error) {
      next(error);
    }
  };
}
