// What every request meets before Remix (decision 013): the client address
// as the trusted proxy saw it, the security headers, text the shop can read
// in its address, a cap on declared body sizes, and the same-origin check for
// every state-changing request.
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";

/**
 * @typedef {import("express").Request} Request
 * @typedef {import("express").Response} Response
 * @typedef {import("express").NextFunction} NextFunction
 * @typedef {import("express").RequestHandler} RequestHandler
 */

/** Bodies larger than this are refused before anything reads them (the Stripe webhook's own cap). */
export const MAX_DECLARED_BODY_BYTES = 512 * 1024;

/**
 * The one route that takes more: create-product's picture (5 MB, and room for
 * its text fields; CREATE_PRODUCT_BODY_BYTES in its route, decision 065). Its
 * route reads the body with this limit as it streams, as every reader does.
 *
 * @type {ReadonlyMap<string, number>}
 */
export const UPLOAD_BODY_LIMITS = new Map([
  ["/functions/v1/create-product", 5 * 1024 * 1024 + 256 * 1024],
  ["/functions/v1/replace-product-picture", 5 * 1024 * 1024 + 256 * 1024],
]);

/** Whether the connection's peer is a proxy TRUST_PROXY names (Express's "trust proxy"). */
export function trustsPeer(/** @type {Request} */ req) {
  /** @type {(address: string, hop: number) => boolean} */
  const trust = req.app.get("trust proxy fn");
  return trust(req.socket.remoteAddress ?? "", 0);
}

/**
 * The visitor's address as the trusted proxy saw it (Express's `req.ip` under
 * TRUST_PROXY). When that is not an IP address (a proxy passed on whatever
 * the client wrote), the connection's own address: rate limits are keyed on
 * it, and a client must not choose its key.
 */
export function clientAddressOf(/** @type {Request} */ req) {
  const resolved = req.ip;
  return resolved && isIP(resolved) ? resolved : (req.socket.remoteAddress ?? "unknown");
}

/** A CSP nonce: 16 bytes from the CSPRNG, base64, one draw per response. */
const freshNonce = () => randomBytes(16).toString("base64");

/**
 * The security headers of every response, set here and nowhere else
 * (docs/architecture.md §7). Each request gets a fresh nonce in `res.locals.cspNonce`;
 * the server hands it to Remix, which puts it on its inline scripts, so
 * scripts run only from this origin or with that nonce. JSON-LD blocks are
 * data, not scripts, and need none.
 *
 * `formActionOrigins`: where a form may post besides this origin (a
 * no-JavaScript checkout is redirected to Stripe's hosted page).
 */
/**
 * @param {{ https: boolean, formActionOrigins?: string[] }} options
 * @returns {RequestHandler}
 */
export function securityHeaders({ https, formActionOrigins = [] }) {
  // The policy, joined once around where each request's nonce goes.
  const beforeNonce = "default-src 'self'; script-src 'self' 'nonce-";
  const afterNonce = [
    "'",
    // React renders style attributes on the server; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `form-action ${["'self'", ...formActionOrigins].join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
  return (_req, res, next) => {
    const nonce = freshNonce();
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", `${beforeNonce}${nonce}${afterNonce}`);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/** Where the checkout's no-JavaScript form may be sent: Stripe's hosted page, or STRIPE_API_URL's stand-in. */
export function paymentFormOrigins(/** @type {string | undefined} */ stripeApiUrl) {
  const origins = ["https://checkout.stripe.com"];
  if (stripeApiUrl) origins.push(new URL(stripeApiUrl).origin);
  return origins;
}

/** @param {Request} req */
const wantsJson = (req) => req.path.startsWith("/functions/") || !(req.get("accept") ?? "").includes("text/html");

/**
 * Answers a request the edge refuses, as JSON `{ error }` or, for a browser
 * page, a small page of its own (`title`, then `message`).
 *
 * @param {Request} req
 * @param {Response} res
 * @param {number} status
 * @param {string} message
 * @param {string} [title]
 */
export function refuse(req, res, status, message, title = "Sorry, we could not take that") {
  // A body declared too large is not worth discarding: close its connection after the answer.
  if (status === 413) res.setHeader("Connection", "close");
  res.setHeader("Cache-Control", "no-store");
  if (wantsJson(req)) {
    res.status(status).json({ error: message });
    return;
  }
  res
    .status(status)
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Chill PB</title></head>` +
        `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>${title}</h1>` +
        `<p>${message}</p><p><a href="/">Return to Home</a></p></body></html>`,
    );
}

/**
 * Refuses an address holding text the shop never accepts (app/lib/text.ts):
 * a path that cannot be decoded or holds a control character names no page
 * (404); such a query is a bad request (400). Nothing reaches Remix, the
 * database or a stack trace; the one log line is the request's own.
 *
 * @param {(pathname: string, search: string) => "path" | "query" | null} unacceptablePart
 * @returns {RequestHandler}
 */
export function refuseUnreadableUrls(unacceptablePart) {
  return (req, res, next) => {
    const question = req.originalUrl.indexOf("?");
    const pathname = question === -1 ? req.originalUrl : req.originalUrl.slice(0, question);
    const search = question === -1 ? "" : req.originalUrl.slice(question + 1);
    const part = unacceptablePart(pathname, search);
    if (part === "path") return refuse(req, res, 404, "There is no page at this address.", "Oops! Page not found");
    if (part === "query") return refuse(req, res, 400, "This address holds characters we cannot read.");
    next();
  };
}

/** How much of a refused body is read and thrown away so that its connection can serve the next request. */
export const MAX_DISCARDED_BYTES = 8 * 1024 * 1024;

/** How long a connection closed on a body that goes on is still read (and the bytes dropped) before it is cut. */
export const LINGER_MS = 5_000;

/**
 * After an answer sent before its request body was read to the end (a 413, a
 * 403), the rest of the body is discarded as it arrives, never kept, so the
 * keep-alive connection stays in step for the client's next request.
 *
 * A body that goes on past MAX_DISCARDED_BYTES gets its connection closed,
 * lingering (as nginx's lingering_close does): the server sends its FIN after
 * the answer and goes on reading and dropping for up to LINGER_MS. Cutting the
 * connection at once would make the kernel answer the bytes still arriving
 * with a reset, and a client still uploading (many read the answer only once
 * their upload is done) would get "connection reset" instead of the 413.
 */
/** @type {RequestHandler} */
export function discardUnreadBodies(req, res, next) {
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    // The reader that stopped at its limit still listens; from here on the bytes go nowhere.
    req.removeAllListeners("data");
    let discarded = 0;
    let lingering = false;
    req.on("data", (/** @type {Buffer} */ chunk) => {
      discarded += chunk.length;
      if (discarded <= MAX_DISCARDED_BYTES || lingering) return;
      lingering = true;
      req.socket.end();
      setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    });
    req.resume();
  });
  next();
}

/**
 * A body declared larger than any form or function accepts is refused at once
 * with 413 (an upload route: larger than its own limit, UPLOAD_BODY_LIMITS).
 *
 * @type {RequestHandler}
 */
export function declaredBodyLimit(req, res, next) {
  const declared = Number(req.get("content-length") ?? 0);
  const upload = UPLOAD_BODY_LIMITS.get(req.path);
  if (upload !== undefined && declared > upload) return refuse(req, res, 413, "The picture is larger than 5 MB: pictures can be at most 5 MB.");
  if (upload === undefined && declared > MAX_DECLARED_BODY_BYTES) return refuse(req, res, 413, "That request is too large.");
  next();
}

/** The host the client addressed: X-Forwarded-Host only when the proxy that sent it is trusted. */
function requestHost(/** @type {Request} */ req) {
  const forwarded = req.get("x-forwarded-host");
  return forwarded && trustsPeer(req) ? (forwarded.split(",")[0] ?? "").trim() : req.get("host");
}

function originOf(/** @type {string} */ value) {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Refuses a state-changing request sent from another site (403). The shop's
 * own origins: PUBLIC_URL, and the origin the request was addressed to (with a
 * trusted proxy, X-Forwarded-Host and -Proto). A request with neither Origin
 * nor Sec-Fetch-Site did not come from a browser page and cannot be a forgery.
 * The Stripe webhook proves itself by its signature instead, and an
 * unsubscribe by the token in its URL: a mail provider's one-click POST (RFC
 * 8058) comes from the provider, wherever it says it is from (decision 101).
 */
/**
 * @param {{ publicUrl: string | undefined }} options
 * @returns {RequestHandler}
 */
export function sameOrigin({ publicUrl }) {
  const publicOrigin = publicUrl ? originOf(publicUrl) : null;
  return (req, res, next) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method) || req.path === "/webhooks/stripe") return next();
    if (req.path === "/unsubscribe") {
      // Remix refuses an action whose Origin names another host (a 500); here the token is the proof, so it is not asked.
      delete req.headers.origin;
      return next();
    }
    const allowed = new Set([`${req.protocol}://${requestHost(req)}`]);
    if (publicOrigin) allowed.add(publicOrigin);
    const origin = req.get("origin");
    const crossSite = origin !== undefined ? !allowed.has(originOf(origin) ?? "invalid") : req.get("sec-fetch-site") === "cross-site";
    if (crossSite) return refuse(req, res, 403, "Cross-site requests are not accepted.");
    // Remix compares Origin with X-Forwarded-Host or Host again and throws (a 500) when a
    // proxy rewrote Host: tell it the host of the origin this check has just accepted.
    if (origin !== undefined) req.headers["x-forwarded-host"] = new URL(origin).host;
    next();
  };
}

/** 127.0.0.1 (any 127.x), ::1 and 0.0.0.0: what people type for "this machine" besides localhost. */
const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(:\d+)?$/;

/**
 * The demo only (never production): a page asked for at a loopback address
 * other than the shop's one address (http://127.0.0.1:3000 for
 * http://localhost:3000) is sent there first. Otherwise the payment page's
 * return links lead to the other name, a different cookie jar (Cancel lands on
 * an empty shop), and a plain-form Place Order is refused by the CSP's
 * form-action, which names the shop's own address.
 */
/**
 * @param {{ publicOrigin: string }} options
 * @returns {import("express").RequestHandler}
 */
export function demoOneAddress({ publicOrigin }) {
  const shop = new URL(publicOrigin);
  return (req, res, next) => {
    const host = req.get("host") ?? "";
    if (!["GET", "HEAD"].includes(req.method) || host === shop.host || !LOOPBACK_HOST.test(host)) return next();
    res.redirect(307, `${shop.origin}${req.originalUrl}`);
  };
}
