import { json } from "@remix-run/node";
import type { z } from "zod";
import { env } from "~/env.server";
import { assertSameOrigin } from "~/security.server";

/**
 * The /functions/v1 contract: POST with a JSON body, answered with JSON;
 * errors are `{ error }` with a fitting status and never a stack trace.
 */

export const MAX_JSON_BYTES = 32 * 1024;

export function apiError(status: number, error: string, extra?: Record<string, unknown>) {
  return json({ error, ...extra }, { status, headers: { "Cache-Control": "no-store" } });
}

/** Reads and validates a JSON body, throwing a 4xx JSON Response for anything else. */
export async function readJsonBody<Schema extends z.ZodTypeAny>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  if (request.method !== "POST") throw apiError(405, "Use POST.");
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) throw apiError(415, "Send the body as application/json.");
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_JSON_BYTES) throw apiError(400, "Request body is too large.");

  const text = await readLimited(request, MAX_JSON_BYTES);
  if (text === null) throw apiError(400, "Request body is too large.");
  let data: unknown;
  try {
    data = text.trim() ? JSON.parse(text) : {};
  } catch {
    throw apiError(400, "Request body is not valid JSON.");
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw apiError(400, `${where}${issue?.message ?? "Invalid request body."}`);
  }
  return parsed.data;
}

/** The body as text, or null once it grows past `limit` bytes (stops reading there). */
export async function readLimited(request: Request, limit: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs a function's handler after the same-origin check; unexpected failures
 * become a logged 500 without details.
 */
export async function handleFunction(name: string, request: Request, run: () => Promise<Response>) {
  try {
    assertSameOrigin(request, env.PUBLIC_URL);
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    console.error(`Function ${name} failed`, error);
    return apiError(500, "Something went wrong. Please try again.");
  }
}
