/**
 * Small request helpers shared by resource routes and actions.
 */

/** A plain form post (a browser navigation) wants a redirect; fetchers and API clients want JSON. */
export function wantsHtml(request: Request) {
  return (request.headers.get("Accept") ?? "").includes("text/html");
}

/**
 * Where to send a visitor back to after a plain form post: a path on this
 * site only, never another origin (no open redirects).
 */
export function safeRedirectPath(value: FormDataEntryValue | null | undefined, fallback = "/") {
  // Browsers drop tabs and line breaks from URLs, so "/\t/evil.example" would become "//evil.example".
  // eslint-disable-next-line no-control-regex
  if (typeof value !== "string" || !value.startsWith("/") || /[\\\u0000-\u001f\u007f\s]/.test(value)) return fallback;
  if (value.startsWith("//")) return fallback;
  return value;
}
