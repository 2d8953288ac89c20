import type { ActionFunctionArgs } from "@remix-run/node";
import { serveFunction } from "~/functions/serve.server";

/** Every /functions/v1 function (app/functions/registry.server.ts); a GET is answered 405 at the edge. */
export function action(args: ActionFunctionArgs) {
  return serveFunction(args.params.name, args);
}
