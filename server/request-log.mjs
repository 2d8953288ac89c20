// One log line per request, and the context (request id, route) that every
// other line logged while serving it carries (decision 047).
import { randomUUID } from "node:crypto";
import { clientAddressOf, trustsPeer } from "./http-guards.mjs";

/**
 * @typedef {import("../app/utils/logger.server").RequestContext} RequestContext
 * @typedef {import("pino").Logger} Logger
 * @typedef {{ method: string, route: string, status: number, seconds: number }} FinishedRequest
 */

/** A request id a proxy may hand us: what nginx's $request_id, a UUID or a trace id look like. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Query parameters whose values say nothing about a visitor; any other's value is left out of the log. */
const PLAIN_PARAMETERS = new Set(["category", "cart", "partner", "cancelled", "index"]);

/** The path as sent and its query, with the values of anything but plain parameters left out (tokens, session ids). */
export function loggedPath(/** @type {string} */ url) {
  const [path = "", query] = url.split("?", 2);
  const shown = (query ?? "")
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split("=", 1)[0] ?? "";
      return PLAIN_PARAMETERS.has(name) ? pair : name;
    })
    .join("&");
  const line = shown ? `${path}?${shown}` : path;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * The request id comes from X-Request-Id only when a trusted proxy sent it
 * (TRUST_PROXY); otherwise, or when it does not look like an id, a new one.
 * It is returned in the response's X-Request-Id.
 *
 * @param {import("express").Request} req
 */
function requestIdOf(req) {
  const sent = req.get("x-request-id");
  return sent && REQUEST_ID.test(sent) && trustsPeer(req) ? sent : randomUUID();
}

/**
 * First in the chain: gives the request its id and context, and logs one line
 * when its response has been sent or its connection closed: time, level,
 * request id, method, route pattern, path (query values left out), status,
 * duration, bytes sent, the client's address as the shop resolved it, and the
 * instance. 5xx lines are errors; the rest are info. `onFinish` gets the same
 * facts for the metrics.
 *
 * @param {{ logger: () => Logger, requestContext: () => import("node:async_hooks").AsyncLocalStorage<RequestContext>, onFinish?: (request: FinishedRequest) => void }} options
 *   functions, since a development server swaps builds
 * @returns {import("express").RequestHandler}
 */
export function requestLog({ logger, requestContext, onFinish }) {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const bytesBefore = req.socket.bytesWritten;
    /** @type {RequestContext} */
    const context = { requestId: requestIdOf(req), route: "(unreadable)" };
    res.setHeader("X-Request-Id", context.requestId);
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.statusCode;
      const line = {
        requestId: context.requestId,
        route: context.route,
        method: req.method,
        path: loggedPath(req.originalUrl),
        status,
        ms: Math.round(seconds * 10_000) / 10,
        bytes: req.socket.bytesWritten - bytesBefore,
        clientAddress: clientAddressOf(req),
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (status >= 500) logger().error(line, "request");
      else logger().info(line, "request");
      onFinish?.({ method: req.method, route: context.route, status, seconds });
    });
    requestContext().run(context, next);
  };
}
