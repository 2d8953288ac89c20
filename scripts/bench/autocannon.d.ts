// autocannon 9 ships no types (and @types/autocannon is not installed). The
// part scripts/bench/load.mjs and soak.mjs use: its options and its result,
// as its README describes them.
declare module "autocannon" {
  namespace autocannon {
    interface Request {
      /** The path (and query) this request asks for, instead of the URL's. */
      path?: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** The sequence each connection sends in turn, over `method`, `headers` and `body`. */
      requests?: Request[];
      /** Requests per second from all connections together. */
      overallRate?: number;
    }
    /** A hdr-histogram-percentiles-obj summary. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      /** Requests sent per second; `total`: all the requests of the run. */
      requests: Histogram;
      /** Milliseconds. */
      latency: Histogram;
      throughput: Histogram;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      /** How many answers had each status code. */
      statusCodeStats: Record<string, { count: number }>;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
