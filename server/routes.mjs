// What the shop's routes are, as the HTTP edge needs to know them before
// Remix runs: each request's route pattern (for its log line and metrics,
// from a fixed set) and the methods its route answers (decision 045).
import { matchRoutes } from "@remix-run/router";
import { refuse } from "./http-guards.mjs";

/**
 * @typedef {import("@remix-run/node").ServerBuild["routes"]} RouteManifest
 * @typedef {import("@remix-run/router").AgnosticRouteObject} TreeRoute
 * @typedef {import("@remix-run/router").AgnosticRouteMatch<string, TreeRoute>} RouteMatch
 * @typedef {Partial<import("@remix-run/node").ServerBuild["routes"][string]["module"]>} RouteModule
 * @typedef {{ pattern: string, allow: string[], notFound: boolean }} RouteFacts
 */

/** The build's flat manifest as the nested routes matchRoutes takes, children under their parent. */
/**
 * @param {RouteManifest} manifest
 * @param {string} [parentId]
 * @returns {TreeRoute[]}
 */
function routeTree(manifest, parentId) {
  return Object.values(manifest)
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, path: route.path, caseSensitive: route.caseSensitive, index: true }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: routeTree(manifest, route.id) },
    );
}

/**
 * The route an action is sent to, as Remix picks it: the index route when the
 * URL says `?index` (a bare `index` parameter), else the deepest route that
 * contributes to the path.
 *
 * @param {RouteMatch[]} matches
 * @param {URLSearchParams} query
 */
function actionTarget(matches, query) {
  const last = matches[matches.length - 1];
  if (last?.route.index && query.getAll("index").some((value) => value === "")) return last;
  const contributing = matches.filter((match, index) => index === 0 || (match.route.path ?? "") !== "");
  return contributing[contributing.length - 1];
}

/** A page's data as single fetch asks for it: its path and `.data`. */
const SINGLE_FETCH_DATA = /\.data$/;

/**
 * Remix's own route discovery (the `v3_lazyRouteDiscovery` future flag): the
 * browser asks it for the routes of a path before navigating there. No route
 * of the shop's claims it, yet Remix answers it, so it is never a page not found.
 */
const ROUTE_DISCOVERY = "/__manifest";

/** Paths whose route matches are kept (the oldest goes first). */
const MATCHES_KEPT = 1_000;

/**
 * Facts about the routes of one build: `describe(pathname, search)` answers
 * the request's route pattern (`/shop/:id`, `/functions/v1/get-orders`, `/*`
 * for the not-found page), the methods its route answers, and whether the
 * path names nothing the shop serves.
 *
 * A page answers GET and HEAD, and POST when the route its form posts to has
 * an action; a resource route answers GET and HEAD with a loader, POST with
 * an action. A page's data, as single fetch asks for it (`/shop.data`,
 * `/_root.data` for `/`), answers GET and HEAD, and POST when its page
 * does. Remix itself would call an action for PUT, PATCH and DELETE too; no
 * route of the shop takes them.
 *
 * @param {RouteManifest} manifest
 */
export function routeFacts(manifest) {
  const tree = routeTree(manifest);
  /** @returns {RouteModule} */
  const moduleOf = (/** @type {string | undefined} */ id) => (id === undefined ? undefined : manifest[id]?.module) ?? {};
  // matchRoutes ranks and tries every route for each call (2–3% of a page's CPU): a path's matches are kept,
  // for a bounded number of paths (the pages and functions; a product's or an order's id makes more).
  /** @type {Map<string, RouteMatch[]>} */
  const matched = new Map();
  const matchesOf = (/** @type {string} */ pathname) => {
    let found = matched.get(pathname);
    if (!found) {
      found = matchRoutes(tree, pathname) ?? [];
      if (matched.size >= MATCHES_KEPT) matched.delete(/** @type {string} */ (matched.keys().next().value));
      matched.set(pathname, found);
    }
    return found;
  };
  return {
    /**
     * @param {string} pathname the path as sent
     * @param {string} search the query as sent, with or without its "?"
     * @returns {RouteFacts}
     */
    describe(pathname, search) {
      if (pathname === ROUTE_DISCOVERY) return { pattern: ROUTE_DISCOVERY, allow: ["GET", "HEAD"], notFound: false };
      const data = SINGLE_FETCH_DATA.test(pathname);
      const page = data ? pathname.replace(SINGLE_FETCH_DATA, "").replace(/^\/_root$/, "/") : pathname;
      const matches = matchesOf(page);
      const leaf = matches[matches.length - 1];
      const pattern = `/${matches
        .map((match) => match.route.path ?? "")
        .filter(Boolean)
        .join("/")}${data ? ".data" : ""}`;
      // The catch-all page under the root: the path names nothing.
      const notFound = !leaf || (leaf.route.path === "*" && matches.length === 2);
      const query = new URLSearchParams(search);
      const leafModule = moduleOf(leaf?.route.id);
      /** @type {string[]} */
      const allow = [];
      if (!data && !leafModule.default && !leafModule.ErrorBoundary) {
        if (leafModule.loader) allow.push("GET", "HEAD");
        if (leafModule.action) allow.push("POST");
      } else {
        allow.push("GET", "HEAD");
        const target = actionTarget(matches, query);
        if (moduleOf(target?.route.id).action) allow.push("POST");
      }
      return { pattern, allow, notFound };
    },
  };
}

/**
 * A request the shop does not serve (OPTIONS, a method its route has no
 * handler for, a POST to a page without an action) is answered here, with
 * 405 and `Allow`, or 404 when the path names nothing; Remix would answer it
 * with a stack trace in the log.
 *
 * @param {(req: import("express").Request, res: import("express").Response) => RouteFacts} factsOf
 * @returns {import("express").RequestHandler}
 */
export function answerUnservedMethods(factsOf) {
  return (req, res, next) => {
    const { allow, notFound } = factsOf(req, res);
    if (allow.includes(req.method)) return next();
    if (notFound) return refuse(req, res, 404, "There is no page at this address.", "Oops! Page not found");
    res.setHeader("Allow", allow.join(", "));
    refuse(req, res, 405, `This address answers ${allow.join(", ")} only.`);
  };
}
