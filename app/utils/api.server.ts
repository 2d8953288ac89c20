import { json } from "@remix-run/node";
import { reportError } from "~/services/error-reports.server";
import { z } from "zod";
import { isAcceptableJson, UNACCEPTABLE_TEXT } from "~/lib/text";
import { BUSY_HEADERS, CONFLICT_MESSAGE, databaseFailure } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { describeError } from "~/utils/errors.server";
import { wantsHtml } from "~/utils/http.server";
import { assertSameOrigin } from "~/utils/same-origin.server";

/**
 * The /functions/v1 contract: POST with a JSON body, answered with JSON;
 * errors are `{ error }` with a fitting status and never a stack trace.
 */

const MAX_JSON_BYTES = 32 * 1024;
const anyJson = z.unknown();

export function apiError(status: number, error: string, extra?: Record<string, unknown>, headers?: Record<string, string>) {
  return json({ error, ...extra }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/**
 * 413 for a body over its limit. The server (server/http-guards.mjs) then
 * discards the rest of that body, up to a cap, so the connection stays usable
 * for the client's next request.
 */
export function bodyTooLarge(body: "json" | "text" = "json") {
  const headers = { "Cache-Control": "no-store" };
  return body === "json"
    ? json({ error: "Request body is too large." }, { status: 413, headers })
    : new Response("Request body is too large.", { status: 413, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * 400 for a body holding text the shop never accepts (app/lib/text.ts): the
 * same answer from every form and function, before anything reaches the
 * database. A page's form post gets it as its error page; anything else as
 * `{ error }`.
 */
export function unacceptableText(request: Request) {
  const headers = { "Cache-Control": "no-store" };
  return wantsHtml(request)
    ? new Response(UNACCEPTABLE_TEXT, { status: 400, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } })
    : json({ error: UNACCEPTABLE_TEXT }, { status: 400, headers });
}

/**
 * Reads and validates a JSON body, throwing a 4xx JSON Response for anything
 * else. A POST with no body at all and no Content-Type (the spec's "Body:
 * none") reads as `{}`; any other body must be application/json.
 */
export async function readJsonBody<Schema extends z.ZodTypeAny>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  if (request.method !== "POST") throw json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } });
  const type = request.headers.get("Content-Type");
  const isJson = type?.toLowerCase().startsWith("application/json") ?? false;
  if (type !== null && !isJson) throw apiError(415, "Send the body as application/json.");
  const text = await readLimited(request, MAX_JSON_BYTES);
  if (text === null) throw bodyTooLarge("json");
  if (!isJson && text !== "") throw apiError(415, "Send the body as application/json.");
  let data: unknown;
  try {
    data = text.trim() ? JSON.parse(text) : {};
  } catch {
    throw apiError(400, "Request body is not valid JSON.");
  }
  if (!isAcceptableJson(data)) throw unacceptableText(request);
  return parseJson(schema, data);
}

/** A body already read, as the schema reads it, or a 400 naming the first field that is wrong. */
export function parseJson<Schema extends z.ZodTypeAny>(schema: Schema, data: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw apiError(400, `${where}${issue?.message ?? "Invalid request body."}`);
  }
  return parsed.data;
}

/**
 * readJsonBody for the dashboard's forms: a 400 also carries `fieldErrors`,
 * every field's first message by its path, so the form shows them all at once.
 */
export async function readJsonForm<Schema extends z.ZodTypeAny>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  const parsed = schema.safeParse(await readJsonBody(request, anyJson));
  if (parsed.success) return parsed.data;
  throw formRefusal(parsed.error, "Invalid request body.");
}

/**
 * A refused form's 400 (JSON or multipart): the first message, and every
 * field's first message by its path ("nutrition.per100g.proteinG"); an entry
 * of one of `lists` (a multipart form's repeated field) by the list's name.
 */
export function formRefusal(error: z.ZodError, fallback: string, lists: readonly string[] = []) {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = lists.includes(String(issue.path[0])) ? String(issue.path[0]) : issue.path.join(".");
    if (path && !(path in fieldErrors)) fieldErrors[path] = issue.message;
  }
  const first = error.issues[0];
  return apiError(400, `${first?.path.length ? `${first.path.join(".")}: ` : ""}${first?.message ?? fallback}`, { fieldErrors });
}

/**
 * The one body reader for forms and JSON alike: the body as text, or null as
 * soon as it grows past `limit` bytes (declared or streamed, chunked included).
 * It stops reading there and holds at most `limit` bytes; it does not cancel
 * the stream, since that would destroy the socket before the 413 is sent.
 * Bytes that are not UTF-8 are refused (`unacceptableText`), not replaced.
 */
export async function readLimited(request: Request, limit: number): Promise<string | null> {
  const bytes = await readBytesLimited(request, limit);
  if (bytes === null) return null;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw unacceptableText(request);
  }
}

/**
 * The body's bytes, or null as soon as it grows past `limit` (declared or
 * streamed): readLimited's reading, for bodies that are not text (a
 * picture's multipart form). Stops reading there and leaves the rest unread:
 * the server discards it and still answers (server/http-guards.mjs).
 */
export async function readBytesLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) return null;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** What a function answers when no database connection could be had in time. */
export const SHOP_BUSY = "The shop is very busy right now. Please try again in a few seconds.";

/**
 * 503 with Retry-After for a request that found the database busy
 * (isDatabaseBusy): nothing was done, and the same request a few seconds
 * later will most likely go through.
 */
export function shopBusy() {
  return json({ error: SHOP_BUSY }, { status: 503, headers: BUSY_HEADERS });
}

/**
 * Runs a function's handler after the same-origin check; a busy database
 * becomes a 503 with Retry-After, other unexpected failures a logged 500
 * without details.
 */
/**
 * A JSON answer with its Content-Length: the server's compression then leaves
 * one under 1 kB as it is (most functions' answers, Stripe's webhook) instead
 * of starting a gzip stream for 60 bytes, as it did for every answer Remix
 * streamed without a length (3% of an order's CPU, scripts/bench/orders.mjs).
 */
export async function withLength(response: Response): Promise<Response> {
  if (response.headers.has("Content-Length") || !response.body || !response.headers.get("Content-Type")?.startsWith("application/json")) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set("Content-Length", String(body.byteLength));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

export async function handleFunction(name: string, request: Request, run: () => Promise<Response>) {
  try {
    assertSameOrigin(request, env.PUBLIC_URL);
    return await withLength(await run());
  } catch (error) {
    if (error instanceof Response) return withLength(error);
    const answer = databaseFailureAnswer(error, `Function ${name}`);
    if (answer) return answer;
    // Briefly: a database error's full message prints the query's arguments (customer data).
    console.error(`Function ${name} failed: ${describeError(error)}`);
    reportError(error, { source: "function", route: `/functions/v1/${name}` });
    return apiError(500, "Something went wrong. Please try again.");
  }
}

/** The log line of each way a request can fail in the database (never a query's values: describeError). */
export const DATABASE_FAILURE_LINES = {
  busy: "no database connection came free in time; answered 503",
  unavailable: "the database was not there (restarted, failed over or unreachable); answered 503",
  conflict: "a transaction lost a race on every try; answered 409",
} as const;

/**
 * The JSON answer for a request that failed in the database (databaseFailure):
 * 503 with Retry-After when it was busy or away, 409 when its transaction
 * lost a race on every try; null for any other error. `who` names the
 * request in the warning it logs.
 */
export function databaseFailureAnswer(error: unknown, who: string): Response | null {
  const failure = databaseFailure(error);
  if (!failure) return null;
  console.warn(`${who}: ${DATABASE_FAILURE_LINES[failure]} (${describeError(error)})`);
  return failure === "conflict" ? apiError(409, CONFLICT_MESSAGE) : shopBusy();
}

/**
 * Runs a resource route's loader or action (the cart, sign-in, the sitemap …)
 * and answers its database failure as a function's is (databaseFailureAnswer),
 * thrown as its Response; Remix would answer it 500. Called inside the route's
 * own `export async function`, so that the browser build, which drops the
 * route's server exports, never runs it. Pages need none of this:
 * handleError and handleRequest give theirs 503 or 409.
 */
export async function answeringDatabaseFailures<Result>(who: string, run: () => Promise<Result>): Promise<Result> {
  try {
    return await run();
  } catch (error) {
    const answer = error instanceof Response ? null : databaseFailureAnswer(error, who);
    if (answer) throw answer;
    throw error;
  }
}
