/**
 * Refuses a state-changing request sent from another site (docs/architecture.md §7).
 * Browsers send Origin with every POST; a request with neither Origin nor
 * Sec-Fetch-Site did not come from a browser page and cannot be a forgery.
 * A second line behind server/http-guards.mjs's `sameOrigin`, for when the
 * routes run without that server (tests calling actions, `remix-serve`).
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
