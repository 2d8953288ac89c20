// /metrics for Prometheus, answered by the HTTP edge before anything else
// that costs (page cache, Remix), and only to the addresses METRICS_ALLOW
// lets in; anyone else gets the not-found answer (decision 049).
import { BlockList, isIP } from "node:net";
import { refuse } from "./http-guards.mjs";

/** @typedef {import("../app/utils/logger.server").RequestContext} RequestContext */

/** The ranges behind the names METRICS_ALLOW (and Express's trust proxy) know. */
const NAMED_RANGES = /** @type {Record<string, [string, number, "ipv4" | "ipv6"][]>} */ ({
  loopback: [
    ["127.0.0.0", 8, "ipv4"],
    ["::1", 128, "ipv6"],
  ],
  linklocal: [
    ["169.254.0.0", 16, "ipv4"],
    ["fe80::", 10, "ipv6"],
  ],
  uniquelocal: [
    ["10.0.0.0", 8, "ipv4"],
    ["172.16.0.0", 12, "ipv4"],
    ["192.168.0.0", 16, "ipv4"],
    ["fc00::", 7, "ipv6"],
  ],
});

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * Whether an address is in METRICS_ALLOW's list (as the env schema parsed
 * it: addresses, CIDR ranges, the names above). An IPv4 address seen on a
 * dual-stack socket (::ffff:127.0.0.1) counts as the IPv4 address.
 *
 * @param {string[]} entries
 * @returns {(address: string) => boolean}
 */
export function addressAllowList(entries) {
  const list = new BlockList();
  for (const entry of entries) {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [network, prefix, family] of named) list.addSubnet(network, prefix, family);
      continue;
    }
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const plain = MAPPED_IPV4.exec(address)?.[1] ?? address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * GET and HEAD of /metrics: the metrics in Prometheus's text format, never
 * cached, to a client whose connection comes from an allowed address; 404 to
 * anyone else, as for an address that names nothing. Judged on the socket's
 * own address, never on X-Forwarded-For (which a client writes as it likes),
 * and a request that came through a proxy (it carries X-Forwarded-For) is
 * refused whoever sent it: Prometheus scrapes each instance directly, and
 * through nginx on the same machine every visitor's connection is the
 * loopback's (decision 080). Other methods and paths go on.
 *
 * @param {{ allowed: (address: string) => boolean, render: () => Promise<{ contentType: string, body: string }>, requestContext: () => import("node:async_hooks").AsyncLocalStorage<RequestContext> }} options
 * @returns {import("express").RequestHandler}
 */
export function metricsEndpoint({ allowed, render, requestContext }) {
  return (req, res, next) => {
    if (req.path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const context = requestContext().getStore();
    if (context) context.route = "/metrics";
    if (req.headers["x-forwarded-for"] !== undefined || !allowed(req.socket.remoteAddress ?? "")) {
      return refuse(req, res, 404, "There is no page at this address.", "Oops! Page not found");
    }
    render().then(({ contentType, body }) => {
      res.setHeader("Content-Type", contentType);
      res.setHeader("Cache-Control", "no-store");
      res.status(200).send(body);
    }, next);
  };
}
