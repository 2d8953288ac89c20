// Load generators: autocannon, in this process, for throughput; a one-at-a-time
// caller for the latency of single requests (the admin's functions).
import autocannon from "autocannon";
import { cpuMs } from "./server.mjs";

/**
 * @typedef {{ requestsPerSecond: number, p50Ms: number, p99Ms: number, cpuMsPerRequest: number, requests: number, failures: number }} Throughput
 *   One `hammer` run, or the medians of several; latencies in ms
 */

/** What Chromium sends: the server compresses as it would for a visitor. */
export const BROWSER_HEADERS = { accept: "text/html,application/xhtml+xml", "accept-encoding": "gzip, deflate, br, zstd" };

/** @param {number[]} samples @param {number} p @returns {number} */
export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** @param {number[]} values */
export const median = (values) => percentile(values, 50);

/**
 * `connections` keep-alive connections request `url` for `seconds`, with
 * `headers`, or each with every set of `eachHeaders` (or every path of
 * `eachPath`) in turn. Returns requests per second, latency percentiles (ms),
 * the server's CPU time per request (ms) and the count of answers that were
 * not 2xx (not `status`, when given) or failed.
 *
 * @param {{ url: string, connections: number, seconds: number, pid?: number, headers?: Record<string, string>, method?: string, body?: string, eachHeaders?: Record<string, string>[], eachPath?: string[], status?: number }} options
 *   without `pid` (the server's), `cpuMsPerRequest` is NaN
 * @returns {Promise<Throughput>}
 */
export async function hammer({ url, connections, seconds, pid, headers = BROWSER_HEADERS, method = "GET", body, eachHeaders, eachPath, status }) {
  const cpuBefore = pid ? cpuMs(pid) : 0;
  // `eachHeaders`: each connection sends these header sets in turn (many visitors, each with their own cookie);
  // `eachPath`: these paths in turn (a scan of unknown addresses).
  const each = eachHeaders?.map((own) => ({ method, headers: own })) ?? eachPath?.map((path) => ({ method, path, headers }));
  const result = await autocannon({ url, connections, duration: seconds, headers, method, body, ...(each ? { requests: each } : {}) });
  const cpuUsed = pid ? cpuMs(pid) - cpuBefore : NaN;
  const requests = result.requests.total;
  // No answer at all within the run: as slow as it gets, never "0 ms".
  return {
    requestsPerSecond: requests / result.duration,
    p50Ms: requests > 0 ? result.latency.p50 : Infinity,
    p99Ms: requests > 0 ? result.latency.p99 : Infinity,
    cpuMsPerRequest: requests > 0 ? cpuUsed / requests : NaN,
    requests,
    failures:
      result.errors + result.timeouts + (status === undefined ? result.non2xx : result.requests.total - (result.statusCodeStats[String(status)]?.count ?? 0)),
  };
}

/** Every request of the run was answered, with a 2xx. @param {Throughput} run */
export const answeredAll = (run) => run.requests > 0 && run.failures === 0;

/**
 * The median of each figure over several rounds of `hammer`.
 * @param {Throughput[]} rounds
 * @returns {Throughput & { rounds: number }}
 */
export function medianOfRounds(rounds) {
  /** @param {"requestsPerSecond" | "p50Ms" | "p99Ms" | "cpuMsPerRequest"} key */
  const pick = (key) => median(rounds.map((round) => round[key]));
  return {
    requestsPerSecond: pick("requestsPerSecond"),
    p50Ms: pick("p50Ms"),
    p99Ms: pick("p99Ms"),
    cpuMsPerRequest: pick("cpuMsPerRequest"),
    requests: rounds.reduce((sum, round) => sum + round.requests, 0),
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    rounds: rounds.length,
  };
}

/**
 * Calls `request` one at a time, `count` times or for `maxSeconds` (warm-up
 * included), whichever ends first (but at least once), after `warmup` calls
 * that are not counted.
 * Each call must resolve to a Response; its body is read in full. Returns
 * p50/p95 (ms).
 *
 * @param {() => Promise<Response>} request
 * @param {{ count: number, maxSeconds: number, warmup?: number }} options
 */
export async function sample(request, { count, maxSeconds, warmup = 2 }) {
  const deadline = performance.now() + maxSeconds * 1000;
  for (let index = 0; index < warmup && performance.now() < deadline; index++) await expectOk(await request());
  /** @type {number[]} */
  const durations = [];
  // At least one counted call, even when a slow warm-up used up the time.
  while (durations.length < count && (durations.length === 0 || performance.now() < deadline)) {
    const started = performance.now();
    await expectOk(await request());
    durations.push(performance.now() - started);
  }
  // Every call's time in the order made, kept in the JSON: with 25 calls the p95 is the second slowest, so
  // which calls were slow (the first after an import, one in the middle) is what tells a cause from noise.
  const durationsMs = durations.map((duration) => Math.round(duration * 10) / 10);
  return { p50Ms: percentile(durations, 50), p95Ms: percentile(durations, 95), samples: durations.length, durationsMs };
}

/** @param {Response} response */
async function expectOk(response) {
  const body = await response.text();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${body.slice(0, 200)}`);
}

/**
 * Repeats `request` one at a time until `stop()`; for a second load next to
 * `hammer`. `stop` resolves to the count and p95 of the calls it made.
 *
 * @param {(index: number) => Promise<Response>} request
 */
export function background(request) {
  let running = true;
  /** @type {number[]} */
  const durations = [];
  let failures = 0;
  const loop = (async () => {
    for (let index = 0; running; index++) {
      const started = performance.now();
      const response = await request(index).catch(() => null);
      if (!response?.ok) failures++;
      await response?.arrayBuffer();
      durations.push(performance.now() - started);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { calls: durations.length, p95Ms: percentile(durations, 95), failures };
    },
  };
}
