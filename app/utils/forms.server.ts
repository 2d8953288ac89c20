import { HONEYPOT_FIELD } from "~/lib/forms";
import { decodeUrlEncoded, isAcceptableText } from "~/lib/text";
import { env } from "~/utils/env.server";
import { bodyTooLarge, readLimited, unacceptableText } from "~/utils/api.server";
import { wantsHtml } from "~/utils/http.server";
import { assertSameOrigin } from "~/utils/same-origin.server";

/** Our forms are small; anything bigger is refused before it is read. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * Reads a form post safely: same origin only, at most MAX_FORM_BYTES, text
 * the shop accepts only (a 400 otherwise, app/lib/text.ts; a textarea's line
 * breaks pass, single-line fields refuse them in their schemas), and never
 * throws on a body that is not a form (it reads as an empty form).
 */
export async function readFormData(request: Request, { fromAnySite = false }: { fromAnySite?: boolean } = {}): Promise<FormData> {
  // `fromAnySite`: a post whose URL is its own proof (the unsubscribe link's token; decision 101).
  if (!fromAnySite) assertSameOrigin(request, env.PUBLIC_URL);
  const type = request.headers.get("Content-Type") ?? "";
  const text = await readLimited(request, MAX_FORM_BYTES);
  if (text === null) throw bodyTooLarge(wantsHtml(request) ? "text" : "json");
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    return new FormData();
  }
  const formData = type.startsWith("multipart/form-data")
    ? await new Response(text, { headers: { "Content-Type": type } }).formData().catch(() => new FormData())
    : urlEncodedForm(text);
  if (!formData) throw unacceptableText(request);
  for (const [key, value] of formData) {
    const texts = typeof value === "string" ? [key, value] : [key, value.name];
    if (!texts.every((part) => isAcceptableText(part, { lineBreaks: true }))) throw unacceptableText(request);
  }
  return formData;
}

/** A form-encoded body, or null when its escapes are malformed or not UTF-8. */
function urlEncodedForm(text: string) {
  const pairs = decodeUrlEncoded(text);
  if (!pairs) return null;
  const formData = new FormData();
  for (const [key, value] of pairs) formData.append(key, value);
  return formData;
}

/** A form field as text (empty when absent or a file), cut to `max` characters. */
export function formText(formData: FormData, name: string, max = 300) {
  const value = formData.get(name);
  return typeof value === "string" ? value.slice(0, max) : "";
}

/** The honeypot was filled in: a bot, which the caller thanks and ignores. */
export function isBot(formData: FormData) {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === "string" && value.trim() !== "";
}
