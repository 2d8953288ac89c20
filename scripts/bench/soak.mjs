// Memory judged by growth, not by a ceiling (decision 058): the shop as `npm start` runs it, under a
// steady load of anonymous visitors (the page cache) and visitors with a cart with its drawer open (a page
// rendered for each request, as no cached page is since decision 060), for a
// number of minutes, its resident memory sampled every 5 s. A leak shows as RSS that keeps climbing
// once the process has warmed up, so the figure is the slope over the soak's second half.
import autocannon from "autocannon";
import { setTimeout as sleep } from "node:timers/promises";
import { BROWSER_HEADERS } from "./load.mjs";
import { MB } from "./report.mjs";
import { benchDatabase, cartCookie, cpuMs, prepareDatabase, productionEnv, rssBytes, startServer } from "./server.mjs";

const SOAK_DB = "chillpb_bench_soak";
const SAMPLE_MS = 5_000;
/** Requests per second: a busy afternoon for one instance, far below what it can serve, so the machine stays steady. */
const ANONYMOUS_RATE = 60;
const CART_RATE = 15;
/** RSS that grows by more than this per minute over the second half is growing. */
const SLOPE_BUDGET_BYTES_PER_MINUTE = 1_000_000;

/** Least-squares slope of `points` ([x, y] pairs). @param {[number, number][]} points */
export function slope(points) {
  const n = points.length;
  if (n < 2) return NaN;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? NaN : covariance / variance;
}

/** A point for `slope`. @param {number} x @param {number} y @returns {[number, number]} */
const point = (x, y) => [x, y];

/** A slope in bytes per minute as the table says it: "+1.07 MB/min". @param {number} bytesPerMinute */
const perMinuteText = (bytesPerMinute) => `${bytesPerMinute >= 0 ? "+" : "−"}${(Math.abs(bytesPerMinute) / 1_000_000).toFixed(2)} MB/min`;

/** A Prometheus sample's value in /metrics's text, or NaN. @param {string} text @param {string} sample */
function metricValue(text, sample) {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : NaN;
}

/**
 * The shop's V8 heap in use and committed, and its major collections so far, from its /metrics (prom-client's default metrics).
 * @param {string} origin
 */
async function v8Heap(origin) {
  const text = await (await fetch(`${origin}/metrics`)).text();
  return {
    usedBytes: metricValue(text, "nodejs_heap_size_used_bytes"),
    totalBytes: metricValue(text, "nodejs_heap_size_total_bytes"),
    majorCollections: metricValue(text, 'nodejs_gc_duration_seconds_count{kind="major"}'),
  };
}

/**
 * `rate` requests per second to `url` for `seconds`, over a few keep-alive connections.
 * @param {string} url @param {{ rate: number, seconds: number, headers: Record<string, string> }} options
 */
function steady(url, { rate, seconds, headers }) {
  return autocannon({ url, connections: 4, overallRate: rate, duration: seconds, headers });
}

/**
 * @param {{ figure: import("./report.mjs").RecordFigure, step: import("./report.mjs").Step, port: number, minutes: number }} options
 */
export async function benchSoak({ figure, step, port, minutes }) {
  const database = await benchDatabase(SOAK_DB, { fresh: true });
  const env = productionEnv({ port, databaseUrl: database.url });
  step(`soak: preparing the database ${SOAK_DB}`);
  prepareDatabase(env);
  const shop = await startServer(env);
  await sleep(2_000);
  const idleBytes = rssBytes(shop.pid);
  const withCart = { ...BROWSER_HEADERS, cookie: await cartCookie(shop.origin) };

  step(`soak: ${minutes} min at ${ANONYMOUS_RATE} req/s from the page cache and ${CART_RATE} req/s rendered for a cart, RSS every ${SAMPLE_MS / 1000} s`);
  const started = performance.now();
  /** The RSS: [minutes, bytes]. @type {[number, number][]} */
  const samples = [];
  /** The V8 heap in use, the major collections so far and the RSS outside V8's heap, as the shop's /metrics says them: [minutes, bytes, collections, bytes]. @type {[number, number, number, number][]} */
  const heapSamples = [];
  const take = () => {
    const at = (performance.now() - started) / 60_000;
    const rss = rssBytes(shop.pid);
    samples.push([at, rss]);
    v8Heap(shop.origin).then(
      ({ usedBytes, totalBytes, majorCollections }) => heapSamples.push([at, usedBytes, majorCollections, rss - totalBytes]),
      () => undefined,
    );
  };
  take();
  const cpuBefore = cpuMs(shop.pid);
  const timer = setInterval(take, SAMPLE_MS);
  const seconds = Math.round(minutes * 60);
  const [anonymous, cart] = await Promise.all([
    steady(`${shop.origin}/shop`, { rate: ANONYMOUS_RATE, seconds, headers: BROWSER_HEADERS }),
    steady(`${shop.origin}/shop?cart=open`, { rate: CART_RATE, seconds, headers: withCart }),
  ]);
  clearInterval(timer);
  const cpuUsed = cpuMs(shop.pid) - cpuBefore;
  take();
  await sleep(500);
  await shop.stop();
  await database.release();

  const secondHalf = samples.filter(([at]) => at >= minutes / 2);
  const bytesPerMinute = slope(secondHalf);
  const peakBytes = Math.max(...samples.map(([, bytes]) => bytes));
  const failures = [anonymous, cart].reduce((sum, run) => sum + run.errors + run.timeouts + run.non2xx, 0);
  const requests = anonymous.requests.total + cart.requests.total;
  figure(
    "memory:soak",
    `RSS over a ${minutes}-min soak (${requests.toLocaleString("en-US")} requests): idle · peak · end · slope of the second half`,
    `${MB(idleBytes)} · ${MB(peakBytes)} · ${MB(samples.at(-1)?.[1] ?? NaN)} · ${perMinuteText(bytesPerMinute)}`,
    "slope ≤ +1 MB/min, every request answered",
    bytesPerMinute <= SLOPE_BUDGET_BYTES_PER_MINUTE && failures === 0,
    { idleBytes, peakBytes, bytesPerMinute, samples, requests, failures, rates: { anonymous: ANONYMOUS_RATE, cart: CART_RATE } },
  );
  // What the RSS is made of over time: a leak in JavaScript raises the heap's lowest points; an RSS that swings
  // over a flat heap floor is V8's committed heap (the RSS outside it stays flat) or native memory (it does not).
  const heapSecondHalf = heapSamples.filter(([at]) => at >= minutes / 2).map(([at, bytes]) => point(at, bytes));
  const heapPerMinute = slope(heapSecondHalf);
  const heapUsed = heapSamples.map(([, bytes]) => bytes);
  const collections = heapSamples.at(-1)?.[2] ?? NaN;
  const outside = heapSamples.map(([at, , , bytes]) => point(at, bytes));
  const outsidePerMinute = slope(outside.filter(([at]) => at >= minutes / 2));
  figure(
    "memory:soak-outside-heap",
    "RSS outside V8's heap (RSS less the heap V8 has committed: native memory, code, the allocator) over the soak: lowest · highest · slope of the second half",
    outside.length === 0
      ? "not read (/metrics did not answer)"
      : `${MB(Math.min(...outside.map(([, bytes]) => bytes)))} · ${MB(Math.max(...outside.map(([, bytes]) => bytes)))} · ${perMinuteText(outsidePerMinute)}`,
    "",
    null,
    { outsidePerMinute },
  );
  figure(
    "memory:soak-cpu",
    "The shop's CPU over the soak per request answered (the pages and the garbage collections they cause: what a memory setting costs)",
    `${(cpuUsed / requests).toFixed(3)} ms`,
    "",
    null,
    { cpuMs: cpuUsed },
  );
  figure(
    "memory:soak-heap",
    "V8 heap in use over the soak (the shop's /metrics): lowest · highest · slope of the second half · major collections",
    heapSamples.length === 0
      ? "not read (/metrics did not answer)"
      : `${MB(Math.min(...heapUsed))} · ${MB(Math.max(...heapUsed))} · ${perMinuteText(heapPerMinute)} · ${collections}`,
    "",
    null,
    { heapSamples, heapPerMinute, collections },
  );
}
