import type { HttpError } from "@refinedev/core";

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

export function callFunction<T>(name: string, body: unknown = {}) {
  return request<T>(`/functions/v1/${name}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * Calls a function that answers a file (a CSV export) and saves it under the
 * name the server gives in Content-Disposition.
 */
export async function downloadFunction(name: string, body: unknown = {}) {
  let response: Response;
  try {
    response = await fetch(`/functions/v1/${name}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
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
export function callFunctionWithFiles<T>(name: string, form: FormData) {
  return request<T>(`/functions/v1/${name}`, { method: "POST", body: form });
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
