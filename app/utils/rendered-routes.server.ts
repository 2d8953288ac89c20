import type { EntryContext } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";

// <RemixServer> builds React Router's routes from the whole manifest on every
// render; React Router then flattens, ranks and compiles every route to match
// the path (its `useRoutes` keeps nothing between renders), and again for each
// parent path to choose the routes inlined for the browser (lazy route
// discovery). That was 13% of a rendered page's CPU (decision 070). A page
// needs only the routes its own path and its parent paths match: given just
// those, React Router renders the same page and the browser gets the same
// manifest, because the routes it would have matched are all there.

type Manifest = EntryContext["manifest"];
type ManifestRoutes = Manifest["routes"];

/** Parent paths whose matched routes are kept (the oldest goes first): `/`, `/orders`, `/shop`, … */
const PARENTS_KEPT = 1_000;

interface Routing {
  tree: AgnosticRouteObject[];
  parents: Map<string, string[]>;
}

/** Each build's manifest as a tree, made once (a new build in development is a new manifest). */
const routings = new WeakMap<ManifestRoutes, Routing>();

function treeOf(routes: ManifestRoutes, parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) =>
      route!.index
        ? { id: route!.id, path: route!.path, caseSensitive: route!.caseSensitive, index: true }
        : { id: route!.id, path: route!.path, caseSensitive: route!.caseSensitive, children: treeOf(routes, route!.id) },
    );
}

function routingOf(routes: ManifestRoutes): Routing {
  let routing = routings.get(routes);
  if (!routing) {
    routing = { tree: treeOf(routes), parents: new Map() };
    routings.set(routes, routing);
  }
  return routing;
}

/** The ids of the routes `path` matches, kept for the next page under the same parent. */
function parentRouteIds(routing: Routing, path: string): string[] {
  let ids = routing.parents.get(path);
  if (!ids) {
    ids = (matchRoutes(routing.tree, path) ?? []).map((match) => match.route.id!);
    if (routing.parents.size >= PARENTS_KEPT) routing.parents.delete(routing.parents.keys().next().value!);
    routing.parents.set(path, ids);
  }
  return ids;
}

/**
 * The paths React Router's `getPartialManifest` matches besides the page's
 * own: `/orders/abc` → `/`, `/orders`. As it does: the last segment dropped,
 * then each shorter path.
 */
export function parentPaths(pathname: string): string[] {
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  const paths = ["/"];
  while (segments.length > 0) {
    paths.push(`/${segments.join("/")}`);
    segments.pop();
  }
  return paths;
}

/**
 * The ids of the routes a page renders with: those its path matched
 * (`matchedIds`, root first) and those its parent paths match. The edge
 * routes the page with just these (server/page-handlers.mjs, decision 071),
 * and the browser is sent just these (withRenderedRoutes).
 */
export function renderedRouteIds(routes: ManifestRoutes, pathname: string, matchedIds: readonly string[]): string[] {
  const routing = routingOf(routes);
  const ids = new Set(matchedIds);
  for (const path of parentPaths(pathname)) for (const id of parentRouteIds(routing, path)) ids.add(id);
  return [...ids];
}

/**
 * The entry context a page renders with: the same context, its manifest
 * holding only the routes the page's path (already matched by Remix) and its
 * parent paths match. Only for a document render; the full manifest stays
 * the build's.
 */
export function withRenderedRoutes(context: EntryContext, pathname: string): EntryContext {
  const routes = context.manifest.routes;
  const ids = renderedRouteIds(
    routes,
    pathname,
    context.staticHandlerContext.matches.map((match) => match.route.id),
  );
  const rendered: ManifestRoutes = {};
  for (const id of ids) if (routes[id]) rendered[id] = routes[id];
  return { ...context, manifest: { ...context.manifest, routes: rendered } };
}
