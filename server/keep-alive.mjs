// How long the shop keeps an idle connection open between two requests
// (decision 078). Node closes it after 5 s; a proxy or load balancer that
// pools its connections to the shop keeps one for up to 60 s (nginx's
// upstream `keepalive_timeout`, a cloud balancer's idle timeout), so with
// Node's default the server is the side that closes first, and a request the
// proxy sends at that moment meets a reset: a 502, or ECONNRESET for a client
// that does not retry. The side that closes must be the client's.
//
// Node's header timeout (60 s) is left alone: on Node 20 and 26 it counts
// from the start of each request, not from the previous one, so a request
// late in the idle minute is not cut off by it (checked by hand).

/** Longer than the 60 s idle timeout of the usual proxies and balancers. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Applies it to the shop's HTTP server.
 * @template {import("node:http").Server} S
 * @param {S} server
 * @returns {S}
 */
export function keepConnectionsForProxies(server) {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return server;
}
