import type { EntryContext } from "@remix-run/node";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import { getPartialManifest } from "@remix-run/react/dist/fog-of-war.js";
import { matchRoutes, type AgnosticDataRouteMatch, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { parentPaths, withRenderedRoutes } from "./rendered-routes.server";

type ManifestRoutes = EntryContext["manifest"]["routes"];

// The shop's own routes, as Remix reads them from app/routes, under the root.
const routes: ManifestRoutes = { root: { id: "root", path: "", module: "root.js", hasAction: false, hasLoader: true, hasClientAction: false, hasClientLoader: false, hasErrorBoundary: true } };
for (const route of Object.values(flatRoutes("app", remixConfig.ignoredRouteFiles))) {
  routes[route.id] = {
    id: route.id,
    parentId: route.parentId ?? "root",
    path: route.path,
    index: route.index,
    caseSensitive: route.caseSensitive,
    module: `${route.id}.js`,
    hasAction: false,
    hasLoader: true,
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: false,
  };
}

function treeOf(parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) => (route!.index ? { id: route!.id, path: route!.path, index: true } : { id: route!.id, path: route!.path, children: treeOf(route!.id) }));
}
const tree = treeOf();

const idsOf = (matches: { route: AgnosticRouteObject }[] | null) => (matches ?? []).map((match) => match.route.id);

/** The page as Remix renders it: its matches, found in the whole manifest, and the entry context handed to the app. */
function pageContext(pathname: string) {
  const matches = matchRoutes(tree, pathname) as AgnosticDataRouteMatch[];
  const context = { manifest: { routes, entry: { module: "entry.js", imports: [] }, url: "manifest.js", version: "1" }, staticHandlerContext: { matches, location: { pathname } } };
  return { matches, context: context as unknown as EntryContext };
}

const PAGES = ["/", "/shop", "/shop/bar-chocolate-pb", "/checkout", "/order-success", "/orders/0f8fad5b-d9cb-469f-a165-70867728950e", "/privacy", "/no/such/page", "/admin/orders/7"];

describe("a page renders with only the routes its path and parent paths match (decision 070)", () => {
  it("knows the shop's routes (the test reads the real ones)", () => {
    expect(Object.keys(routes).length).toBeGreaterThan(20);
    expect(routes["routes/orders.$id"]?.path).toBe("orders/:id");
  });

  it.each(PAGES)("%s: the browser is sent the same routes as from the whole manifest, and the page matches the same routes", (pathname) => {
    const { matches, context } = pageContext(pathname);
    const rendered = withRenderedRoutes(context, pathname).manifest.routes;
    // What Remix inlines for the browser (lazy route discovery), from the whole manifest and from the pruned one.
    const whole = getPartialManifest(context.manifest, { state: { matches, location: { pathname } }, routes: tree, basename: "/" });
    expect(Object.keys(rendered).sort()).toEqual(Object.keys(whole.routes).sort());
    const prunedTree = Object.values(rendered).filter((route) => route?.parentId === "root");
    expect(prunedTree.length).toBeLessThan(5);
    // What React Router renders (useRoutes matches the path again): the same routes, from the few given.
    const renderedTree = [{ id: "root", path: "", children: prunedTree.map((route) => (route!.index ? { id: route!.id, path: route!.path, index: true as const } : { id: route!.id, path: route!.path })) }];
    expect(idsOf(matchRoutes(renderedTree, pathname))).toEqual(idsOf(matches));
  });

  it("leaves the build's manifest whole: a render gets a copy", () => {
    const { context } = pageContext("/checkout");
    const rendered = withRenderedRoutes(context, "/checkout");
    expect(rendered.manifest).not.toBe(context.manifest);
    expect(Object.keys(context.manifest.routes).length).toBe(Object.keys(routes).length);
    expect(rendered.staticHandlerContext).toBe(context.staticHandlerContext);
  });

  it("lists parent paths as React Router does: the last segment dropped, then each shorter path", () => {
    expect(parentPaths("/")).toEqual(["/"]);
    expect(parentPaths("/checkout")).toEqual(["/"]);
    expect(parentPaths("/orders/abc")).toEqual(["/", "/orders"]);
    expect(parentPaths("/admin/orders/7")).toEqual(["/", "/admin/orders", "/admin"]);
  });
});
