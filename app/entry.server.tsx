import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/lib/nonce";
import { startMocks } from "~/services/mocks.server";
import { startOutboxWorker } from "~/services/outbox.server";
import { startRateLimitSweeper } from "~/utils/rate-limit.server";

const ABORT_DELAY = 5_000;

// Before the first request: with MOCKS=true, no call may reach the real Stripe or geocoder.
await startMocks();
startOutboxWorker();
startRateLimitSweeper();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
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
          const body = new PassThrough();
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
          // Errors while streaming after the shell are logged here; before it they reach the error boundary.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/** For the HTTP server's page cache (server/page-cache.mjs): the catalogue version pages are made from. */
export { catalogVersion } from "~/models/catalog.server";

/** For the HTTP server's shutdown (server.mjs): stops the email worker once its send in flight is done. */
export { stopOutboxWorker } from "~/services/outbox.server";
