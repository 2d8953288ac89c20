import { HONEYPOT_FIELD } from "~/lib/forms";
import { env } from "~/utils/env.server";
import { bodyTooLarge, readLimited } from "~/utils/api.server";
import { wantsHtml } from "~/utils/http.server";
import { assertSameOrigin } from "~/utils/same-origin.server";

/** Our forms are small; anything bigger is refused before it is read. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * Reads a form post safely: same origin only, at most MAX_FORM_BYTES, and
 * never throws on a body that is not a form (it reads as an empty form).
 */
export async function readFormData(request: Request): Promise<FormData> {
  assertSameOrigin(request, env.PUBLIC_URL);
  const type = request.headers.get("Content-Type") ?? "";
  const text = await readLimited(request, MAX_FORM_BYTES);
  if (text === null) throw bodyTooLarge(wantsHtml(request) ? "text" : "json");
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    return new FormData();
  }
  if (type.startsWith("multipart/form-data")) {
    return new Response(text, { headers: { "Content-Type": type } }).formData().catch(() => new FormData());
  }
  const formData = new FormData();
  for (const [key, value] of new URLSearchParams(text)) formData.append(key, value);
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
