import { type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { reportBrowserError } from "~/services/error-reports.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";
import { enforceRateLimit } from "~/utils/rate-limit.server";

const bodySchema = z.object({
  message: z.string().max(500),
  path: z.string().max(200).regex(/^\//, "must be a path"),
});

/**
 * The browser's error page reports what broke (decision 055): { message, path }
 * → 204, forwarded to the error tracker scrubbed, when SENTRY_DSN is set. The
 * DSN stays on the server and the storefront loads no tracker's script.
 */
export function action({ request, context }: ActionFunctionArgs) {
  return handleFunction("client-errors", request, async () => {
    await enforceRateLimit("client-errors", context.clientAddress);
    const { message, path } = await readJsonBody(request, bodySchema);
    reportBrowserError(message, path);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  });
}
