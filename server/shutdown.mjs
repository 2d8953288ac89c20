// How the HTTP server stops for a clean exit (SIGTERM or SIGINT; decision
// 031): it takes no new connections, answers every request it has already
// accepted, closes keep-alive connections once they are idle, and waits for
// the app's background work, all within a time limit.
import net from "node:net";

/**
 * How long a connection accepted just before the stop has to send its
 * request before it counts as idle and is closed. A proxy writes its request
 * as soon as it has connected, so this only needs to cover a busy event loop.
 */
export const REQUEST_GRACE_MS = 1_000;

/**
 * Stops `server` and waits for what is under way; `stopWork(timeoutMs)` stops
 * the app's background work and answers false if it could not finish in time.
 * Resolves when every connection has closed and the work has finished
 * (`clean`), or after `timeoutMs` with every connection then closed.
 *
 * Not `server.close()`: it also closes at once every connection that has no
 * request in progress, and on Node 26 (not on Node 20) that includes one
 * accepted a moment before whose request is still on its way; the proxy then
 * answers that request with 502, and does not retry a POST elsewhere (seen
 * with nginx during a rolling restart). Here the server only stops
 * listening; requests that arrive from now on are answered with
 * `Connection: close`, and after REQUEST_GRACE_MS the connections left idle
 * (kept alive between requests) are closed, then every 100 ms.
 *
 * @param {import("node:http").Server} server
 * @param {{ stopWork: (timeoutMs: number) => Promise<boolean> | boolean, timeoutMs: number, graceMs?: number }} options
 * @returns {Promise<{ clean: boolean, requestsDone: boolean, workDone: boolean, ms: number }>}
 */
export async function shutdown(server, { stopWork, timeoutMs, graceMs = REQUEST_GRACE_MS }) {
  const started = Date.now();
  let requestsDone = false;
  let workDone = false;
  server.prependListener("request", (_request, response) => response.setHeader("Connection", "close"));
  const requests = new Promise((resolve) => net.Server.prototype.close.call(server, resolve)).then(() => (requestsDone = true));
  let sweep;
  const grace = setTimeout(() => {
    server.closeIdleConnections();
    sweep = setInterval(() => server.closeIdleConnections(), 100);
  }, graceMs);
  const work = Promise.resolve(stopWork(timeoutMs)).then((finished) => (workDone = finished !== false));
  let limit;
  await Promise.race([Promise.all([requests, work]), new Promise((resolve) => (limit = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(limit);
  clearTimeout(grace);
  clearInterval(sweep);
  if (!requestsDone) server.closeAllConnections();
  return { clean: requestsDone && workDone, requestsDone, workDone, ms: Date.now() - started };
}
