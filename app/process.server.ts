/**
 * The shop's process, as the HTTP server (server.mjs, server/) gets it from
 * the build. The Remix build is the process's one bundle, so the server
 * reaches the app's modules (its settings, its logger, its metrics, its
 * database pool) through the build's entry module, which re-exports this
 * file and renders nothing of it: one instance of each module for the
 * requests and for the server around them (decision 092).
 *
 * Loading the build does three things, in this order, before the first
 * request: the app's console lines become JSON log lines; with MOCKS=true
 * the demo's stand-ins (mocks/) answer Stripe and the geocoder; errors go to
 * the tracker when SENTRY_DSN is set (decision 055).
 */
import { startMocks } from "../mocks/start";
import { startErrorReports } from "~/services/error-reports.server";
import { routeConsoleToLogger } from "~/utils/logger.server";

// From here on the app's console lines are JSON log lines, errors described, never printed whole.
routeConsoleToLogger();
// Before the first request: with MOCKS=true, no call may reach the real Stripe or geocoder.
await startMocks();
startErrorReports();

/** For server.mjs: the email worker and the periodic jobs, started once the database is migrated and stopped on shutdown. */
export { startBackgroundWork, stopBackgroundWork } from "~/services/background-work.server";

/** For the HTTP server (server/app.mjs): the settings, parsed once by the one schema. */
export { env } from "~/utils/env.server";

/** For the HTTP server's last error handler (server/app.mjs): a database busy or away is 503 there too, and any other error is reported. */
export { BUSY_RETRY_AFTER_SECONDS, databaseFailure } from "~/utils/db.server";
export { flushErrorReports, reportError } from "~/services/error-reports.server";
export { SHOP_BUSY } from "~/utils/api.server";

/** For the HTTP server: its logger, the request log's own (server/request-log.mjs), and the context their lines carry. */
export { logger, requestContext, requestLineLogger } from "~/utils/logger.server";

/** For the HTTP server's guard on addresses (server/http-guards.mjs): which part of an address the shop refuses to read. */
export { unacceptableUrlPart } from "~/lib/text";

/** For server.mjs: the release its start-up line names, and the stop that makes /readyz answer 503 (decision 050). */
export { describeRelease, release } from "~/utils/release.server";
export { markShuttingDown } from "~/services/health.server";

/** For the HTTP server's metrics (server/metrics.mjs, server/request-log.mjs, server/page-cache.mjs; decision 049). */
export { countPageCache, observeRequest, renderMetrics } from "~/utils/metrics.server";

/** For the HTTP server's page cache (server/page-cache.mjs): the catalogue version pages are made from. */
export { catalogVersion } from "~/models/catalog.server";
