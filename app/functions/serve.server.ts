import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, handleFunction, readJsonForm } from "~/utils/api.server";
import { requireAdmin } from "~/utils/auth.server";
import { requestContext } from "~/utils/logger.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";
import { parseMultipartForm, readMultipartForm } from "~/utils/uploads.server";
import { responseOf, type AnyFunction } from "./define.server";
import { functions, isFunctionName } from "./registry.server";

/**
 * POST /functions/v1/<name>: the function's declaration decides the rest.
 * In this order: POST only (405), the operator and their permission (401,
 * 403) or the address's rate limit (429), the body (400, 413, 415), then
 * the handler. Its answer is JSON and never cached.
 */
export function serveFunction(name: string | undefined, { request, context }: Pick<ActionFunctionArgs, "request" | "context">) {
  if (name === undefined || !isFunctionName(name)) {
    return handleFunction("(unknown)", request, async () => apiError(404, "There is no such function."));
  }
  // The request's log line and metrics name the function (the route's pattern is /functions/v1/:name).
  const store = requestContext.getStore();
  if (store) store.route = `/functions/v1/${name}`;
  const declared: AnyFunction = functions[name];
  return handleFunction(name, request, async () => {
    if (request.method !== "POST") return apiError(405, "Use POST.", undefined, { Allow: "POST" });
    const admin = declared.access === "public" ? null : await requireAdmin(request, declared.access);
    if (declared.rateLimit) await enforceRateLimit(declared.rateLimit, context.clientAddress);
    const body = declared.multipart
      ? parseMultipartForm(request, await readMultipartForm(request, declared.multipart), declared.body, declared.multipart)
      : declared.body
        ? await readJsonForm(request, declared.body)
        : undefined;
    return responseOf(await declared.run({ body, admin, request, context }));
  });
}
