import { useCustom, useCustomMutation, type BaseRecord, type HttpError, type UseCustomProps } from "@refinedev/core";
import type { FunctionAnswer, FunctionBody } from "~/functions/registry.server";
import type { JsonFunctionName } from "./api";

/**
 * Refine's useCustom and useCustomMutation for the shop's functions, by
 * name: the body is the function's schema's input and the answer its
 * handler's type (app/functions/registry.server.ts), so a misspelt name, a
 * wrong body or a field the function does not answer fails `tsc -p admin`.
 * The pages use these, never Refine's untyped `url` (eslint.config.js).
 */

type Answer<Name extends JsonFunctionName> = Extract<FunctionAnswer<Name>, BaseRecord>;

type QueryOptions<Name extends JsonFunctionName> = Omit<
  UseCustomProps<Answer<Name>, HttpError, unknown, FunctionBody<Name>, Answer<Name>>,
  "url" | "method" | "config"
>;

/**
 * A function asked as a query: cached, refetched and invalidated as Refine's
 * custom queries are. `body` may be left out while the query is not enabled
 * (a preview waiting for a complete choice).
 */
export function useFunction<Name extends JsonFunctionName>(name: Name, options?: QueryOptions<Name> & { body?: FunctionBody<Name> }) {
  const { body, ...rest } = options ?? {};
  return useCustom<Answer<Name>, HttpError, unknown, FunctionBody<Name>, Answer<Name>>({
    url: name,
    method: "post",
    ...(body !== undefined && { config: { payload: body } }),
    ...rest,
  });
}

/** A function called on the operator's say-so (a save, a refund): `call(body, options)` is Refine's mutate with the name filled in. */
export function useFunctionMutation<Name extends JsonFunctionName>(name: Name) {
  const { mutate, mutation, ...rest } = useCustomMutation<Answer<Name>, HttpError, FunctionBody<Name>>();
  type Params = Parameters<typeof mutate>[0];
  type Callbacks = Parameters<typeof mutate>[1];
  const call = (values: FunctionBody<Name>, options?: Omit<Params, "url" | "method" | "values">, callbacks?: Callbacks) =>
    mutate({ url: name, method: "post", values, ...options }, callbacks);
  return { call, mutation, ...rest };
}
