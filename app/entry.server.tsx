import { Transform } from "node:stream";
import {
  createReadableStreamFromReadable,
  type AppLoadContext,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/lib/nonce";
import { reportError } from "~/services/error-reports.server";
import { logger } from "~/utils/logger.server";
import { BUSY_HEADERS, databaseFailure } from "~/utils/db.server";
import { DATABASE_FAILURE_LINES } from "~/utils/api.server";

const ABORT_DELAY = 5_000;

/** How long a page's first part waits for the rest of it before going out on its own. */
const HOLD_MS = 20;

/**
 * The stream a page is rendered into: the page passed on in one chunk when it
 * is all written within HOLD_MS, as a page whose data is all loaded is
 * (within a few milliseconds). React writes a page in pieces, and with single
 * fetch the page's data follows its markup in parts that React writes turns
 * later; Remix flushes the response after each chunk it passes on
 * (@remix-run/node's writeReadableStreamToWritable), which ends a block of the
 * `compression` middleware's every time. Flushed in three parts, a page with a
 * cart cost 11 ms of CPU in Brotli at 10 connections against 3 ms in one
 * (decisions 089, 094). A page still rendering after HOLD_MS (a deferred
 * answer, such as the confirmation page's payment check) sends what it has,
 * and from then each turn's writing as soon as it is written.
 */
function wholePage(): Transform {
  const held: Buffer[] = [];
  let holding: NodeJS.Timeout | null = null;
  let released = false;
  let scheduled = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      held.push(chunk);
      const pass = () => {
        scheduled = false;
        if (held.length > 0) this.push(Buffer.concat(held.splice(0)));
      };
      if (!released) {
        holding ??= setTimeout(() => {
          released = true;
          pass();
        }, HOLD_MS);
      } else if (!scheduled) {
        scheduled = true;
        setImmediate(pass);
      }
      done();
    },
    flush(done) {
      if (holding) clearTimeout(holding);
      done(null, held.length > 0 ? Buffer.concat(held.splice(0)) : null);
    },
  });
}

/**
 * Requests whose loader or action failed in the database, as handleError saw
 * them, and what their page (or their fetcher's answer) says instead of 500:
 * 503 with Retry-After when no connection could be had in time or the
 * database was not there (a restart, a failover: shouldRetryLater), since
 * the shop is busy, not broken, and the same request a few seconds later
 * most likely goes through; 409 when a transaction lost a race on every try.
 * (Functions answer their own: handleFunction.)
 */
const failedInDatabase = new WeakMap<Request, 503 | 409>();

function answerBusy(headers: Headers) {
  for (const [name, value] of Object.entries(BUSY_HEADERS)) headers.set(name, value);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const failed = failedInDatabase.get(request);
  if (failed && responseStatusCode === 500) {
    responseStatusCode = failed;
    if (failed === 503) answerBusy(responseHeaders);
  }
  // Bots get the whole page at once; people get it streamed as it renders.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  // The CSP header carrying this nonce is set by the HTTP server (server/http-guards.mjs).
  const nonce = loadContext.cspNonce ?? "";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = wholePage();
          // Rendered whole: nothing is left to abort (a timer left running ended the finished stream again, with an error).
          body.once("end", () => clearTimeout(abortTimer));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors while streaming after the shell are logged here; before it they reach handleError.
          if (shellRendered) logger.error({ err: error }, "rendering a page failed after its first part was sent");
        },
      },
    );
    const abortTimer = setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * Every error a loader, action or render throws (a thrown Response is an
 * answer, not an error) and the router's own refusals reach here: one line
 * each, never the error object or its stack (decision 047). A request the
 * visitor gave up on is not an error of ours.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error)) {
    logger.warn({ status: error.status }, "the router refused the request");
    return;
  }
  const failure = databaseFailure(error);
  if (failure) {
    failedInDatabase.set(request, failure === "conflict" ? 409 : 503);
    logger.warn({ err: error }, DATABASE_FAILURE_LINES[failure]);
    return;
  }
  logger.error({ err: error }, "a request failed");
  reportError(error, { source: "request", method: request.method, route: new URL(request.url).pathname });
};

/** A fetcher's or a client navigation's answer (single fetch's `.data` request): 503 with Retry-After (or 409) when its loader or action failed in the database. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  const failed = failedInDatabase.get(request);
  if (!failed || response.status !== 500) return response;
  const headers = new Headers(response.headers);
  if (failed === 503) answerBusy(headers);
  return new Response(response.body, { status: failed, statusText: failed === 503 ? "Service Unavailable" : "Conflict", headers });
};

/**
 * The rest of the process (its background work, its settings, its logger, its
 * metrics) reaches server.mjs through the build, whose entry this is
 * (app/process.server.ts, decision 092).
 */
export * from "~/process.server";
