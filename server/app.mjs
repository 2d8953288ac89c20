// The shop's Express app: what every request meets before Remix, in order
// (decisions 013, 045, 047). server.mjs listens with it.
import { createRequestHandler } from "@remix-run/express";
import { createRequestHandler as createRemixHandler } from "@remix-run/node";
import compression from "compression";
import express from "express";
import {
  clientAddressOf,
  declaredBodyLimit,
  demoOneAddress,
  discardUnreadBodies,
  paymentFormOrigins,
  refuse,
  refuseUnreadableUrls,
  sameOrigin,
  securityHeaders,
} from "./http-guards.mjs";
import { fingerprintedImages } from "./immutable-assets.mjs";
import { precompressedAssets } from "./precompressed-assets.mjs";
import { addressAllowList, metricsEndpoint } from "./metrics.mjs";
import { pageCache } from "./page-cache.mjs";
import { requestLog } from "./request-log.mjs";
import { answerUnservedMethods, routeFacts } from "./routes.mjs";

/** @typedef {import("./build.mjs").ShopBuild} ShopBuild */
/** @typedef {import("./routes.mjs").RouteFacts} RouteFacts */

/** Files served from disk, logged as the route "static": the asset folders, and any file name no route claims. */
const STATIC_FOLDER = /^\/(?:build|fonts|admin\/assets|images)\//;
const FILE_NAME = /\.[a-z0-9]+$/i;

/**
 * @param {{ build: () => ShopBuild, development: boolean }} options
 *   `build` answers the current build (a development server swaps it on each rebuild)
 */
export function createShopApp({ build, development }) {
  const { env } = build().entry.module;
  /** @type {WeakMap<ShopBuild, ReturnType<typeof routeFacts>>} */
  const routesByBuild = new WeakMap();
  const routesOf = (/** @type {ShopBuild} */ current) => {
    let routes = routesByBuild.get(current);
    if (!routes) routesByBuild.set(current, (routes = routeFacts(current.routes)));
    return routes;
  };
  const logger = () => build().entry.module.logger;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  const requestContext = () => build().entry.module.requestContext;
  app.use(
    requestLog({ logger: () => build().entry.module.requestLineLogger, requestContext, onFinish: (request) => build().entry.module.observeRequest(request) }),
  );
  app.use(compression());
  // Every response, assets and JSON included; pages get the nonce through the load context.
  app.use(securityHeaders({ https: env.PUBLIC_URL?.startsWith("https://") ?? false, formActionOrigins: paymentFormOrigins(env.STRIPE_API_URL) }));
  // Prometheus's scrapes: before the page cache and Remix, to the allowed addresses only (decision 049).
  app.use(metricsEndpoint({ allowed: addressAllowList(env.METRICS_ALLOW), render: () => build().entry.module.renderMetrics(), requestContext }));
  app.use(refuseUnreadableUrls((pathname, search) => build().entry.module.unacceptableUrlPart(pathname, search)));
  // The request's route, for its log line and the method check below.
  app.use((req, res, next) => {
    const question = req.originalUrl.indexOf("?");
    /** @type {RouteFacts} */
    const facts = routesOf(build()).describe(req.path, question === -1 ? "" : req.originalUrl.slice(question + 1));
    res.locals.routeFacts = facts;
    const context = build().entry.module.requestContext.getStore();
    if (context) context.route = STATIC_FOLDER.test(req.path) || (facts.notFound && FILE_NAME.test(req.path)) ? "static" : facts.pattern;
    next();
  });
  if (env.DEMO) app.use(demoOneAddress({ publicOrigin: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` }));
  app.use(discardUnreadBodies);
  app.use(declaredBodyLimit);
  app.use(sameOrigin({ publicUrl: env.PUBLIC_URL }));
  // Fingerprinted assets never change; everything else in public/ may.
  // Compressed once at build time (decision 056), then the files themselves for what was not worth compressing.
  for (const [mount, folder] of /** @type {const} */ ([
    ["/build", "public/build"],
    ["/admin/assets", "admin/dist/assets"],
  ])) {
    app.use(mount, precompressedAssets(folder), express.static(folder, { immutable: true, maxAge: "1y" }));
  }
  app.use("/fonts", express.static("public/fonts", { immutable: true, maxAge: "1y" }));
  app.use(fingerprintedImages());
  // Only a path that names a file can be one: a page's path is never looked up on disk (a stat and an error per page).
  const publicFiles = express.static("public", { maxAge: "1h" });
  app.use((req, res, next) => (FILE_NAME.test(req.path) ? publicFiles(req, res, next) : next()));

  app.use(answerUnservedMethods((_req, res) => /** @type {RouteFacts} */ (res.locals.routeFacts)));

  /** @type {import("@remix-run/express").GetLoadContextFunction} */
  const getLoadContext = (req, res) => ({ clientAddress: clientAddressOf(req), cspNonce: res.locals.cspNonce });
  // A development server's build changes on each rebuild: Remix asks for it again for every request there.
  const remixBuild = development ? async () => build() : build();

  // Pages that are the same for every visitor without a cart, until the catalogue or the build changes (decision 089).
  app.use(
    pageCache({
      render: createRemixHandler(remixBuild, build().mode),
      getLoadContext,
      version: async () => `${build().assets.version}:${await build().entry.module.catalogVersion()}`,
      // A path no route claims gets the one kept "page not found" (issue 38, item 6).
      notFound: (_req, res) => /** @type {RouteFacts} */ (res.locals.routeFacts).notFound,
      onServed: (outcome, page) => {
        build().entry.module.countPageCache(outcome);
        // The catch-all's loader logs each path it answers 404 for, so that broken links can be found; one answered from memory is logged here.
        if (page.notFound && outcome === "hit") logger().warn(`404 Not Found: ${page.path}`);
      },
    }),
  );

  // Remix answers everything else, the JSON API (/functions/v1/*, Stripe's webhook) included, through its own
  // request handler (decision 081).
  const remix = createRequestHandler({ build: remixBuild, mode: build().mode, getLoadContext });
  app.all("*", remix);

  // Anything that still goes wrong: one log line, never a stack trace, never the error's details to the client.
  // A database that was busy or away (a restart, a failover) is 503 with Retry-After, as inside Remix.
  app.use(
    /** @type {import("express").ErrorRequestHandler} */
    (error, req, res, _next) => {
      const failure = build().entry.module.databaseFailure(error);
      if (failure === "busy" || failure === "unavailable") {
        logger().warn({ err: error }, "the database was busy or away; answered 503");
        if (res.headersSent) return void res.destroy();
        res.setHeader("Retry-After", String(build().entry.module.BUSY_RETRY_AFTER_SECONDS));
        return refuse(req, res, 503, build().entry.module.SHOP_BUSY, "Please try again in a moment");
      }
      const status = typeof error?.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
      if (status === 500) {
        logger().error({ err: error }, "request failed");
        build().entry.module.reportError(error, { source: "request", method: req.method, route: req.path });
      }
      if (res.headersSent) return void res.destroy();
      refuse(req, res, status, status === 500 ? "Something went wrong on our side. Please try again." : "That request could not be read.");
    },
  );
  return app;
}
