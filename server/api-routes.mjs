// The JSON API without Remix's router (decision 069): `/functions/v1/*` and Stripe's webhook are
// answered by their route modules' loader or action directly, as Remix answers a resource route, and
// Remix routes the pages without them. React Router ranks and tries every route of the build for each
// request it routes, and tried these ~35 before a page's own: 17% of `/checkout`'s CPU, 9% of an order's.
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";

/** @typedef {import("./build.mjs").ShopBuild} ShopBuild */
/** @typedef {Partial<ShopBuild["routes"][string]["module"]>} RouteModule */

/** The API's route modules, by id: app/routes/functions.v1.*.ts and app/routes/webhooks.stripe.ts. */
const API_ROUTE_ID = /^routes\/(?:functions\.v1\.[a-z0-9-]+|webhooks\.stripe)$/;

export const isApiRoute = (/** @type {string} */ id) => API_ROUTE_ID.test(id);

/** @type {WeakMap<ShopBuild, ShopBuild>} */
const pageBuilds = new WeakMap();

/**
 * The build as Remix serves it: every route but the API's, in its routes and
 * in the manifest it renders pages with (which must name only routes it has
 * modules for). The browser's own manifest (the built manifest file the
 * pages load) still names them; no page navigates to an API route, and the
 * pages that call one use fetch.
 *
 * @param {ShopBuild} build
 * @returns {ShopBuild}
 */
export function pagesOf(build) {
  let pages = pageBuilds.get(build);
  if (!pages) {
    /** @type {<T>(record: Record<string, T>) => Record<string, T>} */
    const withoutApi = (record) => Object.fromEntries(Object.entries(record).filter(([id]) => !isApiRoute(id)));
    pages = { ...build, routes: withoutApi(build.routes), assets: { ...build.assets, routes: withoutApi(build.assets.routes) } };
    pageBuilds.set(build, pages);
  }
  return pages;
}

/** @type {WeakMap<ShopBuild, Map<string, RouteModule>>} */
const apiPaths = new WeakMap();

/** @param {ShopBuild} build */
function apiModules(build) {
  let byPath = apiPaths.get(build);
  if (!byPath) {
    byPath = new Map();
    for (const route of Object.values(build.routes)) if (isApiRoute(route.id)) byPath.set(`/${route.path}`, route.module);
    apiPaths.set(build, byPath);
  }
  return byPath;
}

/**
 * Answers a request to an API route as Remix answers a resource route: GET
 * and HEAD from its loader, POST from its action (the methods a route has no
 * handler for were answered 405 before, by answerUnservedMethods), a thrown
 * Response as the answer, any other error reported through the build's
 * handleError and answered 500 with `{ error }`. Anything else goes on to Remix.
 *
 * @param {{ build: () => ShopBuild, getLoadContext: import("@remix-run/express").GetLoadContextFunction }} options
 * @returns {import("express").RequestHandler}
 */
export function answerApiRoutes({ build, getLoadContext }) {
  return async (req, res, next) => {
    const current = build();
    const module = apiModules(current).get(req.path);
    const handler = req.method === "GET" || req.method === "HEAD" ? module?.loader : req.method === "POST" ? module?.action : undefined;
    if (!handler) return next();
    try {
      const request = createRemixRequest(req, res);
      const context = await getLoadContext?.(req, res);
      const args = { request, params: {}, context: context ?? {} };
      /** @type {unknown} */
      let answer;
      try {
        answer = await handler(args);
      } catch (thrown) {
        if (thrown instanceof Response) answer = thrown;
        else {
          current.entry.module.handleError?.(thrown, args);
          answer = Response.json({ error: "Something went wrong. Please try again." }, { status: 500 });
        }
      }
      const response = answer instanceof Response ? answer : Response.json(answer ?? null);
      await sendRemixResponse(res, req.method === "HEAD" ? new Response(null, response) : response);
    } catch (error) {
      next(error);
    }
  };
}
