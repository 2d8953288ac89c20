import { json, type AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import type { Admin, Permission } from "~/lib/operators";
import type { RateLimitScope } from "~/utils/rate-limit.server";

/**
 * One /functions/v1 function, declared once (decision 082): who may call it,
 * how its body is read, and what it does. The route
 * (app/routes/functions.v1.$name.ts), the 401/403/405/413/415 answers, the
 * admin's typed client, the admin's access control and every test that goes
 * through the functions all read the declarations in
 * app/functions/registry.server.ts; nothing else lists them.
 */

/** Anyone, or a signed-in operator whose role has this permission (app/lib/operators.ts). */
export type FunctionAccess = "public" | Permission;

/** A multipart/form-data body (a file in it): its limit, the field the 413 names, and how its fields are read. */
export type MultipartBody = {
  limit: number;
  /** The file field a body over the limit is blamed on, and its message. */
  field: string;
  message: string;
  /** Fields that repeat (checkboxes) and fields that may hold line breaks. */
  lists?: readonly string[];
  multiline?: readonly string[];
};

/** What a function's handler is given: its body as the schema read it, the operator (null for a public function), the request. */
export type FunctionCall<Access extends FunctionAccess, Body> = {
  body: Body;
  admin: Access extends "public" ? null : Admin;
  request: Request;
  context: AppLoadContext;
};

/**
 * A typed answer with a status or headers of its own (refund-order's 202);
 * a handler's plain object is answered 200. Both reach the admin's client
 * typed; a Response (an error, a CSV file) does not.
 */
export class Answer<Data> {
  constructor(
    readonly data: Data,
    readonly init: ResponseInit = {},
  ) {}
}

export function answer<Data>(data: Data, init?: ResponseInit) {
  return new Answer(data, init);
}

export type FunctionResult = object;

export type FunctionDeclaration<
  Access extends FunctionAccess,
  Schema extends z.ZodTypeAny | undefined,
  Result extends FunctionResult,
  Form extends MultipartBody | undefined = undefined,
> = {
  access: Access;
  /** Counted per client address before anything else is read (app/utils/rate-limit.server.ts). */
  rateLimit?: RateLimitScope;
  /**
   * The JSON body's schema; a body it refuses is a 400 naming the first wrong
   * field, with every field's message in `fieldErrors`. Without one the
   * function reads no body.
   */
  body?: Schema;
  /** Read the body as multipart/form-data (fields and files) instead of JSON, by `body`. */
  multipart?: Form;
  /** A body the function accepts: the tests send it, and make it hostile (tests/integration/functions.test.ts). */
  example?: Schema extends z.ZodTypeAny ? z.input<Schema> : undefined;
  run(call: FunctionCall<Access, Schema extends z.ZodTypeAny ? z.output<Schema> : undefined>): Promise<Result>;
};

/** Declares a function; the registry's key is its name. */
export function defineFunction<
  Access extends FunctionAccess,
  Result extends FunctionResult,
  Schema extends z.ZodTypeAny | undefined = undefined,
  Form extends MultipartBody | undefined = undefined,
>(declaration: FunctionDeclaration<Access, Schema, Result, Form>): FunctionDeclaration<Access, Schema, Result, Form> {
  return declaration;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest declaration: any access, any schema, any answer
export type AnyFunction = FunctionDeclaration<FunctionAccess, any, FunctionResult, MultipartBody | undefined>;

/** A value as JSON.stringify sends it: a Date as its ISO string, the rest field by field. */
export type Wire<T> = T extends Date ? string : T extends readonly (infer Item)[] ? Wire<Item>[] : T extends object ? { [Key in keyof T]: Wire<T[Key]> } : T;

/** The JSON a declaration answers with 200 (or its Answer's status), as its caller reads it. */
export type AnswerOf<Declaration> =
  Declaration extends FunctionDeclaration<FunctionAccess, infer _Schema, infer Result, infer _Form>
    ? Result extends Response
      ? never
      : Wire<Result extends Answer<infer Data> ? Data : Result>
    : never;

/** The body a caller sends: the schema's input, FormData for a multipart function, nothing for one without a body. */
export type BodyOf<Declaration> =
  Declaration extends FunctionDeclaration<FunctionAccess, infer Schema, infer _Result, infer Form>
    ? [Form] extends [MultipartBody]
      ? FormData
      : Schema extends z.ZodTypeAny
        ? z.input<Schema>
        : undefined
    : never;

/** A handler's result as the HTTP answer: JSON, never cached; a Response as it is. */
export function responseOf(result: FunctionResult): Response {
  if (result instanceof Response) return result;
  const { data, init } = result instanceof Answer ? result : { data: result, init: {} };
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", "no-store");
  return json(data, { ...init, headers });
}
