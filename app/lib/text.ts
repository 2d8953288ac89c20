/**
 * The text the shop accepts from outside, one rule for every address, query,
 * form and JSON body (decision 046). Browser-safe: no I/O.
 *
 * Never accepted: NUL and the other control characters (C0, DEL, C1), which
 * no one types and which PostgreSQL refuses to store (a 500 before), and
 * invalid UTF-16, a surrogate without its pair (JSON can carry one as
 * "\ud800"), which no database column, email or log line can hold faithfully.
 * Tab, line feed and carriage return are control characters too: they are
 * accepted only where `lineBreaks` says a field may span lines (a message);
 * single-line form fields refuse them with a field message (`singleLine`).
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Characters that change how text reads without being seen: the bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: "Trojan
 * Source", a name that reads backwards in the admin, on a packing slip or in
 * a CSV), the direction marks (U+200E, U+200F, U+061C), and zero-width spaces
 * and joiners-in-name-only (U+200B, U+2060–U+2064, U+FEFF). Refused in the
 * names, addresses and inquiries customers type, as control characters are
 * (decision 080). The zero-width joiner and non-joiner (U+200D, U+200C) are
 * kept: emoji sequences and several scripts are written with them.
 */
export const INVISIBLE_FORMATTING = "\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff";
const INVISIBLE = new RegExp(`[${INVISIBLE_FORMATTING}]`);

/** Whether `text` holds none of INVISIBLE_FORMATTING. */
export const isFreeOfInvisibleFormatting = (text: string) => !INVISIBLE.test(text);

export function isAcceptableText(text: string, { lineBreaks }: { lineBreaks: boolean }): boolean {
  if (CONTROL.test(text) || LONE_SURROGATE.test(text)) return false;
  return lineBreaks || !LINE_BREAK_OR_TAB.test(text);
}

/**
 * Whether every string in a parsed JSON value (keys included) is acceptable,
 * line breaks allowed. A loop, not recursion: 32 kB of "[" nests deeper than
 * the call stack goes.
 */
export function isAcceptableJson(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (!isAcceptableText(item, { lineBreaks: true })) return false;
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) pending.push(key, child);
    }
  }
  return true;
}

/** What a refused request is told, whatever carried the text. */
export const UNACCEPTABLE_TEXT = "Some of the text sent holds characters we cannot accept (control characters or broken Unicode).";

const decodeComponent = (text: string) => decodeURIComponent(text.replaceAll("+", " "));

/**
 * A form body or a query string (application/x-www-form-urlencoded), decoded
 * strictly: null for a malformed escape or escaped bytes that are not UTF-8,
 * which URLSearchParams would quietly turn into U+FFFD.
 */
export function decodeUrlEncoded(text: string): [string, string][] | null {
  const pairs: [string, string][] = [];
  for (const part of text.split("&")) {
    if (part === "") continue;
    const equals = part.indexOf("=");
    try {
      pairs.push(equals === -1 ? [decodeComponent(part), ""] : [decodeComponent(part.slice(0, equals)), decodeComponent(part.slice(equals + 1))]);
    } catch {
      return null;
    }
  }
  return pairs;
}

/**
 * Which part of an address (as sent, percent-encoded) holds text the shop
 * refuses: the path (no page has such a name: 404), the query (400), or null.
 * No path or query parameter of the shop spans lines.
 */
export function unacceptableUrlPart(pathname: string, search: string): "path" | "query" | null {
  // "//…" (or "/\…") names no page, and a URL parser reads it as another host: Remix's request made from it was
  // an invalid URL, answered 500 (decision 080).
  if (/^\/[/\\]/.test(pathname)) return "path";
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return "path";
  }
  if (!isAcceptableText(path, { lineBreaks: false })) return "path";
  const pairs = decodeUrlEncoded(search.replace(/^\?/, ""));
  const singleLine = (text: string) => isAcceptableText(text, { lineBreaks: false });
  if (!pairs || !pairs.every(([name, value]) => singleLine(name) && singleLine(value))) return "query";
  return null;
}
