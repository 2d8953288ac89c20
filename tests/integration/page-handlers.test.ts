import { once } from "node:events";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import { createRequestHandler } from "@remix-run/express";
import type { EntryContext } from "@remix-run/node";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import type { ShopBuild } from "../../server/build.mjs";
import { buildWithRoutes, remixByMatchedRoutes } from "../../server/page-handlers.mjs";
import { routeFacts, type RouteFacts } from "../../server/routes.mjs";
import { renderedRouteIds, withRenderedRoutes } from "~/utils/rendered-routes.server";
import { server as msw } from "../setup/msw";

/**
 * Remix routes each page with only the routes its path matches (decision
 * 071). Here the shop's real routes (as Remix reads app/routes), each with a
 * loader and an action naming itself, and an entry module that answers with
 * what Remix hands a page: every request must get the same answer from the
 * edge's handler as from Remix's handler of the whole build.
 */

type Entry = EntryContext & {
  staticHandlerContext: {
    matches: { route: { id: string }; params: Record<string, string> }[];
    loaderData: Record<string, unknown>;
    actionData: Record<string, unknown> | null;
  };
};
type Route = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; module: object };

const routes: Record<string, Route> = { root: { id: "root", path: "", module: { default: () => null, loader: () => "root" } } };
for (const route of Object.values(flatRoutes("app", remixConfig.ignoredRouteFiles))) {
  const id = route.id;
  routes[id] = {
    id,
    parentId: route.parentId ?? "root",
    path: route.path,
    index: route.index,
    caseSensitive: route.caseSensitive,
    module: { default: () => null, loader: ({ params }: { params: object }) => ({ id, params }), action: () => ({ acted: id }) },
  };
}

const build = {
  mode: "production",
  basename: undefined,
  isSpaMode: false,
  future: { v3_lazyRouteDiscovery: true, v3_singleFetch: false, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_fetcherPersist: true },
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  routes,
  assets: {
    version: "v1",
    url: "/build/manifest-v1.js",
    entry: { module: "/build/entry.js", imports: [] },
    routes: Object.fromEntries(
      Object.values(routes).map((route) => [
        route.id,
        { id: route.id, parentId: route.parentId, path: route.path, index: route.index, hasLoader: true, hasAction: true, module: `/build/${route.id}.js` },
      ]),
    ),
  },
  entry: {
    module: {
      // The page as React would get it: the routes it matched, their data, how many route modules Remix gave
      // it, and the routes it would render (as app/entry.server.tsx does) without a module (React would throw).
      default: (request: Request, statusCode: number, _headers: Headers, context: Entry) =>
        Response.json(
          {
            matches: context.staticHandlerContext.matches.map((match) => [match.route.id, match.params]),
            loaderData: context.staticHandlerContext.loaderData,
            actionData: context.staticHandlerContext.actionData,
            routeModules: Object.keys(context.routeModules).length,
            renderedWithoutModule: Object.keys(withRenderedRoutes(context, new URL(request.url).pathname).manifest.routes).filter(
              (id) => !context.routeModules[id],
            ),
          },
          { status: statusCode },
        ),
      renderedRouteIds,
      // Remix reports a ?_data request for a route the path does not match (both handlers refuse it alike).
      handleError: () => undefined,
    },
  },
} as unknown as ShopBuild;

let edge: string;
let wholeBuild: string;
const servers: Server[] = [];

async function listen(app: express.Express) {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const facts = routeFacts(build.routes);
  // As server/app.mjs: the edge describes the request's route, then Remix answers it.
  const app = express();
  app.use((req, res, next) => {
    const question = req.originalUrl.indexOf("?");
    res.locals.routeFacts = facts.describe(req.path, question === -1 ? "" : req.originalUrl.slice(question + 1));
    next();
  });
  app.all(
    "*",
    remixByMatchedRoutes({
      build,
      getLoadContext: () => ({ clientAddress: "203.0.113.9", cspNonce: "" }),
      matchedIdsOf: (res) => (res.locals.routeFacts as RouteFacts).routeIds,
    }),
  );
  edge = await listen(app);
  const whole = express();
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Remix's Express handler answers a promise; Express 4 ignores it, and the handler catches its own errors
  whole.all("*", createRequestHandler({ build, mode: "production", getLoadContext: () => ({ clientAddress: "203.0.113.9", cspNonce: "" }) }));
  wholeBuild = await listen(whole);
});
afterAll(() => {
  for (const server of servers) server.close();
});
beforeEach(() => {
  msw.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()));
});

/** The path is sent as written (fetch would resolve `..` and backslashes before sending). */
function answer(base: string, path: string, { method = "GET", body }: { method?: string; body?: URLSearchParams } = {}) {
  return new Promise<{ status: number; body: Record<string, unknown> | string }>((resolve, reject) => {
    const headers = body ? { "Content-Type": "application/x-www-form-urlencoded" } : {};
    const request = httpRequest(`${base}/`, { method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: response.statusCode ?? 0, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : text });
      });
    });
    request.on("error", reject);
    request.end(body?.toString());
  });
}

/** The answer but for how many route modules the page was handed (the point of the change; the test below). */
async function page(base: string, path: string, init?: { method: string; body: URLSearchParams }) {
  const { status, body } = await answer(base, path, init);
  if (typeof body === "object") delete body.routeModules;
  return { status, body };
}

const ORDER = "0f8fad5b-d9cb-469f-a165-70867728950e";
const filled = (path: string) => path.replace(/:[a-zA-Z]+\??/g, ORDER).replace(/\*$/, "no/such/page");
/** Every path of the shop's routes with its parameters filled in, and paths Remix reads otherwise than they are written. */
const PATHS = [
  ...new Set([
    ...Object.values(routes)
      .filter((route) => route.path !== undefined && route.id !== "root")
      .map((route) => {
        let path = filled(route.path!);
        for (let parent = routes[route.parentId ?? ""]; parent && parent.id !== "root"; parent = routes[parent.parentId ?? ""]) {
          if (parent.path) path = `${filled(parent.path)}/${path}`;
        }
        return `/${path}`;
      }),
    "/",
    "/no/such/page",
    // The functions are one route (/functions/v1/:name); a name it has and one it has not.
    "/functions/v1/get-orders",
    "/functions/v1/no-such-function",
    "/shop/../checkout",
    "/shop/%2e%2e/checkout",
    "/shop/%2E%2E/privacy",
    "/shop\\..\\checkout",
    "//checkout",
  ]),
];

describe("a page routed with only the routes its path matches (decision 071)", () => {
  it("knows the shop's pages (the test reads the real routes)", () => {
    expect(PATHS.length).toBeGreaterThan(30);
    expect(PATHS).toContain(`/orders/${ORDER}`);
    expect(PATHS).toContain("/checkout");
  });

  it.each(PATHS)("GET %s: the same routes, params, data and status as Remix with the whole build", async (path) => {
    expect(await page(edge, path)).toEqual(await page(wholeBuild, path));
  });

  it.each(["/checkout", "/shop", `/orders/${ORDER}`, "/", "/no/such/page"])(
    "POST %s, with and without ?index, and its ?_data requests: the same answers",
    async (path) => {
      for (const search of ["", "?index"]) {
        const post = (base: string) => page(base, `${path}${search}`, { method: "POST", body: new URLSearchParams({ intent: "x" }) });
        expect(await post(edge), `POST ${path}${search}`).toEqual(await post(wholeBuild));
      }
      for (const routeId of ["root", "routes/checkout", "routes/shop", "routes/orders.$id", "routes/_index", "routes/admin._index"]) {
        const data = `${path}?_data=${encodeURIComponent(routeId)}`;
        expect(await page(edge, data), data).toEqual(await page(wholeBuild, data));
      }
    },
  );

  it("answers lazy route discovery's manifest from the whole build", async () => {
    const manifest = `/__manifest?version=v1&p=${encodeURIComponent("/checkout")}&p=${encodeURIComponent(`/orders/${ORDER}`)}&p=/shop`;
    const whole = await answer(wholeBuild, manifest);
    expect(Object.keys(whole.body as object).length).toBeGreaterThan(3);
    expect(await answer(edge, manifest)).toEqual(whole);
  });

  it("hands the page only the route modules it renders with: its path's, and its parent paths'", async () => {
    const page = (await answer(edge, "/checkout")).body as { matches: [string][]; routeModules: number; renderedWithoutModule: string[] };
    expect(page.matches.map(([id]) => id)).toEqual(["root", "routes/checkout"]);
    // root and routes/checkout, and routes/_index for the parent path "/".
    expect(page.routeModules).toBe(3);
    expect(page.renderedWithoutModule).toEqual([]);
    const whole = (await answer(wholeBuild, "/checkout")).body as { routeModules: number };
    expect(whole.routeModules).toBe(Object.keys(routes).length);
  });

  it("makes a build of the given routes in the build's order, leaving the build and its assets whole", () => {
    const pruned = buildWithRoutes(build, ["routes/checkout", "root"]);
    expect(Object.keys(pruned.routes)).toEqual(["root", "routes/checkout"]);
    expect(pruned.assets).toBe(build.assets);
    expect(Object.keys(build.routes).length).toBe(Object.keys(routes).length);
  });
});
