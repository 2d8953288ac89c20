import type { HttpError } from "@refinedev/core";
import type { FunctionAnswer, FunctionBody, FunctionName } from "~/functions/registry.server";

/**
 * The shop's functions as the admin calls them, typed by their declarations
 * (app/functions/registry.server.ts): a name the shop has no function for,
 * or a body its schema would refuse, fails `tsc -p admin`, and the answer is
 * the type the function returns.
 */
type Answers<Name extends FunctionName> = [FunctionAnswer<Name>] extends [never] ? never : Name;
/** Functions answering JSON (every function but the CSV exports) with a JSON body or none. */
export type JsonFunctionName = { [Name in FunctionName]: FunctionBody<Name> extends FormData ? never : Answers<Name> }[FunctionName];
/** Functions answering a file (the CSV exports). */
export type FileFunctionName = { [Name in FunctionName]: [FunctionAnswer<Name>] extends [never] ? Name : never }[FunctionName];
/** Functions taking a multipart form (a picture). */
export type UploadFunctionName = { [Name in FunctionName]: FunctionBody<Name> extends FormData ? Name : never }[FunctionName];
/** A row of a list function's answer, as the function returns it: `ListRow<"get-inquiries", "inquiries">`. */
export type ListRow<Name extends JsonFunctionName, Key extends keyof FunctionAnswer<Name>> = FunctionAnswer<Name>[Key] extends readonly (infer Row)[]
  ? Row
  : never;
/** A function's body argument: required when its schema requires something, absent when it takes none. */
export type BodyArgument<Name extends FunctionName> = undefined extends FunctionBody<Name> ? [body?: FunctionBody<Name>] : [body: FunctionBody<Name>];

/**
 * Calls the shop's own endpoints with the session cookie. Errors become
 * Refine HttpErrors carrying the server's message, status and field errors.
 */
async function request<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    throw { message: "The shop could not be reached.", statusCode: 0 } satisfies HttpError;
  }
  const body = (await response.json().catch(() => ({}))) as { error?: string; fieldErrors?: Record<string, string> } & T;
  if (!response.ok) {
    throw {
      message: body.error ?? `Request failed (${response.status})`,
      statusCode: response.status,
      // A form's 400: each field's message, shown beside that field.
      ...(body.fieldErrors && { errors: body.fieldErrors }),
    } satisfies HttpError;
  }
  return body;
}

/** A JSON body POSTed to a function: the one way the admin's JSON calls go. */
function postJson<T>(name: string, body: unknown) {
  return request<T>(`/functions/v1/${name}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

export function callFunction<Name extends JsonFunctionName>(name: Name, ...[body]: BodyArgument<Name>) {
  return postJson<FunctionAnswer<Name>>(name, body);
}

/**
 * A function called by a name Refine carries as a string (its data
 * provider's `custom`, under useFunction and useFunctionMutation, which type
 * the name, the body and the answer).
 */
export function postToFunction(name: string, body: unknown) {
  return postJson<unknown>(name, body);
}

/**
 * Calls a function that answers a file (a CSV export) and saves it under the
 * name the server gives in Content-Disposition.
 */
export async function downloadFunction<Name extends FileFunctionName>(name: Name, ...[body]: BodyArgument<Name>) {
  let response: Response;
  try {
    response = await fetch(`/functions/v1/${name}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    throw { message: "The shop could not be reached.", statusCode: 0 } satisfies HttpError;
  }
  if (!response.ok) {
    const error = (await response.json().catch(() => ({}))) as { error?: string };
    throw { message: error.error ?? `Request failed (${response.status})`, statusCode: response.status } satisfies HttpError;
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? `${name}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Calls a function that takes a file (create-product's picture): the form goes as multipart/form-data, its boundary set by the browser. */
export function callFunctionWithFiles<Name extends UploadFunctionName>(name: Name, form: FormData) {
  return request<FunctionAnswer<Name>>(`/functions/v1/${name}`, { method: "POST", body: form });
}

export function postForm<T>(path: string, fields: Record<string, string>) {
  return request<T>(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

export function getJson<T>(path: string) {
  return request<T>(path, { method: "GET" });
}

/** A failed save's toast: the server's message, or, when it named fields, a pointer to them (each message shows beside its field). */
export function fieldErrorsNote(error: HttpError | undefined) {
  return error?.errors && Object.keys(error.errors).length > 0 ? "Please correct the fields marked in red." : (error?.message ?? "");
}
