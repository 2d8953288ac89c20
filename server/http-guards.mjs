// What every request meets before Remix (DESIGN.md §7): the client address as
// the trusted proxy saw it, the security headers, a cap on declared body
// sizes, and the same-origin check for every state-changing request.
import { randomBytes } from "node:crypto";

/** Bodies larger than this are refused before anything reads them (the Stripe webhook's own cap). */
export const MAX_DECLARED_BODY_BYTES = 512 * 1024;

/**
 * TRUST_PROXY → Express's "trust proxy": unset or "false" trusts nobody (the
 * socket's address); "true" is one hop (the load balancer); a number is that
 * many hops; anything else is a comma-separated list of proxy addresses or
 * CIDR ranges. Never "trust every hop", which lets a client pick its address.
 */
export function parseTrustProxy(value) {
  const text = (value ?? "").trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true") return 1;
  if (/^\d+$/.test(text)) return Number(text);
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The security headers of every response, set here and nowhere else
 * (DESIGN.md §7). Each request gets a fresh nonce in `res.locals.cspNonce`;
 * the server hands it to Remix, which puts it on its inline scripts, so
 * scripts run only from this origin or with that nonce. JSON-LD blocks are
 * data, not scripts, and need none.
 *
 * `formActionOrigins`: where a form may post besides this origin (a
 * no-JavaScript checkout is redirected to Stripe's hosted page).
 */
export function securityHeaders({ https, formActionOrigins = [] }) {
  const formAction = ["'self'", ...formActionOrigins].join(" ");
  return (_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        // React renders style attributes on the server; styles cannot run code.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        `form-action ${formAction}`,
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
      ].join("; "),
    );
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/** Where the checkout's no-JavaScript form may be sent: Stripe's hosted page, or STRIPE_API_URL's stand-in. */
export function paymentFormOrigins(stripeApiUrl) {
  const origins = ["https://checkout.stripe.com"];
  if (stripeApiUrl) origins.push(new URL(stripeApiUrl).origin);
  return origins;
}

const wantsJson = (req) => req.path.startsWith("/functions/") || !(req.get("accept") ?? "").includes("text/html");

function refuse(req, res, status, message) {
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
        `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>Sorry, we could not take that</h1>` +
        `<p>${message}</p><p><a href="/">Return to Home</a></p></body></html>`,
    );
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
export function discardUnreadBodies(req, res, next) {
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    // The reader that stopped at its limit still listens; from here on the bytes go nowhere.
    req.removeAllListeners("data");
    let discarded = 0;
    let lingering = false;
    req.on("data", (chunk) => {
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

/** A body declared larger than any form or function accepts is refused at once with 413. */
export function declaredBodyLimit(req, res, next) {
  const declared = Number(req.get("content-length") ?? 0);
  if (declared > MAX_DECLARED_BODY_BYTES) return refuse(req, res, 413, "That request is too large.");
  next();
}

/** The host the client addressed: X-Forwarded-Host only when the proxy that sent it is trusted. */
function requestHost(req) {
  const forwarded = req.get("x-forwarded-host");
  const trusted = req.app.get("trust proxy fn")(req.socket.remoteAddress, 0);
  return forwarded && trusted ? forwarded.split(",")[0].trim() : req.get("host");
}

function originOf(value) {
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
 * The Stripe webhook proves itself by its signature instead.
 */
export function sameOrigin({ publicUrl }) {
  const publicOrigin = publicUrl ? originOf(publicUrl) : null;
  return (req, res, next) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method) || req.path === "/webhooks/stripe") return next();
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
