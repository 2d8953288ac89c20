import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import { createRequestHandler, type EntryContext, type ServerBuild } from "@remix-run/node";
import { Outlet, RemixServer, Scripts } from "@remix-run/react";
import { matchRoutes, type AgnosticDataRouteMatch, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { parentPaths, withRenderedRoutes } from "./rendered-routes.server";

type ManifestRoutes = EntryContext["manifest"]["routes"];

// The shop's own routes, as Remix reads them from app/routes, under the root.
const routes: ManifestRoutes = {
  root: { id: "root", path: "", module: "root.js", hasAction: false, hasLoader: true, hasClientAction: false, hasClientLoader: false, hasErrorBoundary: true },
};
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
  const context = {
    manifest: { routes, entry: { module: "entry.js", imports: [] }, url: "manifest.js", version: "1" },
    staticHandlerContext: { matches, location: { pathname } },
  };
  return { matches, context: context as unknown as EntryContext };
}

/**
 * A build of the shop's routes that Remix serves through its public request
 * handler: a root rendering the page and its <Scripts> (where Remix inlines
 * the routes the browser is sent, lazy route discovery), every other route an
 * outlet. Its entry renders the page with the context Remix hands it whole,
 * or as withRenderedRoutes leaves it: the two must be the same HTML.
 */
function shopBuild(render: "whole" | "rendered"): ServerBuild {
  const modules = Object.fromEntries(
    Object.values(routes).map((route) => [
      route!.id,
      {
        id: route!.id,
        parentId: route!.id === "root" ? undefined : route!.parentId,
        path: route!.path,
        index: route!.index,
        caseSensitive: route!.caseSensitive,
        module: {
          default:
            route!.id === "root"
              ? () => createElement("html", null, createElement("body", null, createElement(Outlet), createElement(Scripts)))
              : () => createElement(Outlet),
          loader: () => null,
        },
      },
    ]),
  );
  return {
    mode: "production",
    basename: undefined,
    isSpaMode: false,
    future: { v3_lazyRouteDiscovery: true, v3_singleFetch: false, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_fetcherPersist: true },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    routes: modules,
    assets: { version: "1", url: "/build/manifest-1.js", entry: { module: "/build/entry.js", imports: [] }, routes },
    entry: {
      module: {
        default: (request: Request, status: number, headers: Headers, context: EntryContext) => {
          const pathname = new URL(request.url).pathname;
          const page = render === "whole" ? context : withRenderedRoutes(context, pathname);
          return new Response(renderToString(createElement(RemixServer, { context: page, url: request.url })), { status, headers });
        },
      },
    },
  } as unknown as ServerBuild;
}

const PAGES = [
  "/",
  "/shop",
  "/shop/bar-chocolate-pb",
  "/checkout",
  "/order-success",
  "/orders/0f8fad5b-d9cb-469f-a165-70867728950e",
  "/privacy",
  "/no/such/page",
  "/admin/orders/7",
];

describe("a page renders with only the routes its path and parent paths match (decision 070)", () => {
  it("knows the shop's routes (the test reads the real ones)", () => {
    expect(Object.keys(routes).length).toBeGreaterThan(20);
    expect(routes["routes/orders.$id"]?.path).toBe("orders/:id");
  });

  const whole = createRequestHandler(shopBuild("whole"));
  const rendered = createRequestHandler(shopBuild("rendered"));

  it.each(PAGES)(
    "%s: Remix renders the same page, and inlines the same routes for the browser, from the few routes as from the whole manifest",
    async (pathname) => {
      const request = () => new Request(`http://shop.test${pathname}`);
      const [fromWhole, fromRendered] = await Promise.all([
        whole(request()).then((response) => response.text()),
        rendered(request()).then((response) => response.text()),
      ]);
      expect(fromWhole).toContain("__remixManifest");
      expect(fromRendered).toBe(fromWhole);
      // And few routes they are: what the page's path and its parent paths match.
      const { matches, context } = pageContext(pathname);
      const few = withRenderedRoutes(context, pathname).manifest.routes;
      expect(Object.values(few).filter((route) => route?.parentId === "root").length).toBeLessThan(5);
      // What React Router renders (useRoutes matches the path again): the same routes, from the few given.
      const prunedTree = Object.values(few).filter((route) => route?.parentId === "root");
      const renderedTree = [
        {
          id: "root",
          path: "",
          children: prunedTree.map((route) =>
            route!.index ? { id: route!.id, path: route!.path, index: true as const } : { id: route!.id, path: route!.path },
          ),
        },
      ];
      expect(idsOf(matchRoutes(renderedTree, pathname))).toEqual(idsOf(matches));
    },
  );

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
