import { randomBytes } from "node:crypto";
import { env } from "~/env.server";

/**
 * Security headers for every page (DESIGN.md §7). Scripts run only from this
 * origin or with the request's nonce (Remix's inline hydration scripts);
 * JSON-LD blocks are data, not scripts, so they need none.
 */
export function createNonce() {
  return randomBytes(16).toString("base64");
}

export function applySecurityHeaders(headers: Headers, nonce: string) {
  headers.set(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      // React renders style attributes on the server; styles cannot run code.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      // A no-JavaScript checkout is redirected to Stripe's hosted page (or STRIPE_API_URL's).
      `form-action 'self' https://checkout.stripe.com${env.STRIPE_API_URL ? ` ${new URL(env.STRIPE_API_URL).origin}` : ""}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "object-src 'none'",
    ].join("; "),
  );
  // nosniff, Referrer-Policy, X-Frame-Options, Permissions-Policy and HSTS are
  // set for every response in server/http-guards.mjs.
}

/**
 * Refuses a state-changing request sent from another site (DESIGN.md §7).
 * Browsers send Origin with every POST; a request with neither Origin nor
 * Sec-Fetch-Site did not come from a browser page and cannot be a forgery.
 */
export function assertSameOrigin(request: Request, publicUrl: string | undefined) {
  const allowed = new Set([new URL(request.url).origin]);
  if (publicUrl) allowed.add(new URL(publicUrl).origin);
  const origin = request.headers.get("Origin");
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  const crossSite = origin ? origin === "null" || !allowed.has(origin) : fetchSite === "cross-site";
  if (crossSite) {
    throw new Response(JSON.stringify({ error: "Cross-site requests are not accepted." }), {
      status: 403,
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
  }
}
