// Remix's request handler for a page, made from a build holding only the routes the page renders with: those
// its path and its parent paths match (decision 071). Remix matches the path against the build's every route
// twice a page (matchServerRoutes, then its static handler's query), and React Router flattens, ranks and
// compiles every route for each match: 10% of `/checkout`'s CPU after decision 070. The edge knows the path's
// matches already (routes.mjs keeps them). A build holding the routes that matched, and others, matches the same
// routes with the same params: the routes left out did not match, and those kept keep their order. The parent
// paths' routes are there because the page is rendered with them (app/utils/rendered-routes.server.ts: React
// renders the routes of the manifest the browser is sent, and each needs its module).
import { createRequestHandler } from "@remix-run/express";

/** @typedef {import("./build.mjs").ShopBuild} ShopBuild */
/** @typedef {ReturnType<typeof createRequestHandler>} RemixHandler */

/** Sets of matched routes whose handler is kept (the oldest goes first); the shop's pages make a few dozen. */
const HANDLERS_KEPT = 200;

/** Lazy route discovery asks for routes by path: it needs the whole build. */
const MANIFEST_PATH = "/__manifest";

/**
 * The build with only these routes, in the build's order. Its assets stay
 * whole: the page's manifest for the browser is chosen from them at render
 * time (app/utils/rendered-routes.server.ts).
 *
 * @param {ShopBuild} build
 * @param {Iterable<string>} routeIds
 * @returns {ShopBuild}
 */
export function buildWithRoutes(build, routeIds) {
  const kept = new Set(routeIds);
  return { ...build, routes: Object.fromEntries(Object.entries(build.routes).filter(([id]) => kept.has(id))) };
}

/**
 * Whether Remix reads the path the edge matched: the URL it makes of the
 * request resolves dot segments (`/shop/../checkout`, `%2e%2e`) and
 * backslashes, which the edge's path keeps.
 *
 * @param {import("express").Request} req
 */
const samePathForRemix = (req) => new URL(req.originalUrl, "http://shop").pathname === req.path;

/**
 * Remix's handler for each request, chosen by the routes its page renders
 * with: those the edge matched for its path (`matchedIdsOf`), and those of
 * its parent paths (the build's `renderedRouteIds`). One handler per set of
 * routes, made on first use. A request whose path matched no route, matched
 * a route this build does not hold, or would be read otherwise by Remix, and
 * lazy route discovery's manifest, go to the handler of the whole build.
 *
 * @param {{ build: ShopBuild, getLoadContext: import("@remix-run/express").GetLoadContextFunction, matchedIdsOf: (res: import("express").Response) => string[] | undefined }} options
 * @returns {import("express").RequestHandler}
 */
export function remixByMatchedRoutes({ build, getLoadContext, matchedIdsOf }) {
  const whole = createRequestHandler({ build, mode: build.mode, getLoadContext });
  /** @type {Map<string, RemixHandler>} */
  const handlers = new Map();
  return (req, res, next) => {
    const matchedIds = matchedIdsOf(res);
    if (!matchedIds || matchedIds.length === 0 || req.path === MANIFEST_PATH || !matchedIds.every((id) => id in build.routes) || !samePathForRemix(req)) {
      return whole(req, res, next);
    }
    const routeIds = build.entry.module.renderedRouteIds(build.assets.routes, req.path, matchedIds);
    const key = routeIds.sort().join(" ");
    let handler = handlers.get(key);
    if (!handler) {
      handler = createRequestHandler({ build: buildWithRoutes(build, routeIds), mode: build.mode, getLoadContext });
      if (handlers.size >= HANDLERS_KEPT) handlers.delete(/** @type {string} */ (handlers.keys().next().value));
      handlers.set(key, handler);
    }
    return handler(req, res, next);
  };
}
