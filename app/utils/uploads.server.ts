import type { z } from "zod";
import { isAcceptableText } from "~/lib/text";
import { apiError, formRefusal, readBytesLimited, unacceptableText } from "~/utils/api.server";

/**
 * A function's form with a file in it (create-product's picture): a
 * multipart/form-data body read by the same rules as every other body (one
 * limit, stopped at as it streams, then 413; text the shop cannot accept is
 * refused), parsed with the platform's own multipart parser, and validated
 * by the function's zod schema with every field's message, as readJsonForm
 * answers the dashboard's JSON forms.
 */

/**
 * Reads a multipart body of at most `limit` bytes. Over it, the answer is 413
 * with `message` (also as the `field`'s error, so the form shows it there).
 */
export async function readMultipartForm(request: Request, { limit, field, message }: { limit: number; field: string; message: string }): Promise<FormData> {
  if (request.method !== "POST") throw apiError(405, "Use POST.");
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) throw apiError(415, "Send the form as multipart/form-data.");
  const bytes = await readBytesLimited(request, limit);
  if (bytes === null) throw apiError(413, message, { fieldErrors: { [field]: message } });
  try {
    return await new Response(bytes, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw apiError(400, "The form could not be read.");
  }
}

/**
 * The form's text fields and files as `schema` reads them: `lists` are the
 * fields that repeat (checkboxes), every other field its one value. Text with
 * control characters or broken Unicode is refused as everywhere (decision
 * 046); `multiline` fields may hold line breaks.
 */
export function parseMultipartForm<Schema extends z.ZodTypeAny>(
  request: Request,
  form: FormData,
  schema: Schema,
  { lists = [], multiline = [] }: { lists?: readonly string[]; multiline?: readonly string[] } = {},
): z.infer<Schema> {
  const data: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && !isAcceptableText(value, { lineBreaks: multiline.includes(name) })) throw unacceptableText(request);
    if (lists.includes(name)) data[name] = [...((data[name] as FormDataEntryValue[] | undefined) ?? []), value];
    else if (!(name in data)) data[name] = value;
  }
  for (const name of lists) data[name] ??= [];
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw formRefusal(parsed.error, "Invalid form.", lists);
}
