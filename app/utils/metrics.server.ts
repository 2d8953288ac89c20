import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { sql } from "kysely";
import { db, poolState, sqlDb } from "~/utils/db.server";
import { readiness } from "~/services/health.server";
import { logger } from "~/utils/logger.server";

/**
 * The process's Prometheus metrics (decision 049), served at /metrics by the
 * HTTP edge (server/metrics.mjs) to the addresses METRICS_ALLOW lets in.
 * Counters and histograms are this process's own: with several instances,
 * each exposes its own and Prometheus sums them. The email outbox gauges are
 * read from the database when scraped, so every instance answers the same
 * figures: take their max(), never their sum().
 *
 * Labels come from fixed sets only (route patterns, status classes, named
 * outcomes and operations), never from a raw path, an id or a customer.
 */

/** Seconds: from a cached page (sub-millisecond) to Stripe's timeout. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What can become of a Stripe webhook delivery (app/routes/webhooks.stripe.ts). */
export const WEBHOOK_OUTCOMES = ["handled", "duplicate", "bad_signature", "bad_shape", "failed"] as const;
/** What went wrong with a payment: a page that could not be opened (placeOrder), or a paid amount that is not the order's (markOrderPaid). */
export const PAYMENT_FAILURE_REASONS = ["stripe_error", "total_mismatch", "paid_amount_mismatch"] as const;

/** The outbox gauges are read at most this often, however many scrapers ask. */
export const OUTBOX_READ_EVERY_MS = 5_000;

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metric = { registers: [registry] };

  // One query for the three outbox gauges of a scrape.
  const outbox = sharedReading(
    readOutbox,
    (figures) => {
      metrics().outboxBacklog.set(figures.backlog);
      metrics().outboxOldestAge.set(figures.oldestAgeSeconds);
      metrics().outboxDead.set(figures.dead);
    },
    "the email outbox",
  );
  const jobs = sharedReading(
    readJobSuccesses,
    (successes) => {
      for (const { name, lastSucceededAt } of successes) metrics().jobLastSuccess.set({ job_name: name }, lastSucceededAt.getTime() / 1000);
    },
    "the background jobs' last successes",
  );
  const ready = sharedReading(
    () => readiness({ timeoutMs: READY_SCRAPE_TIMEOUT_MS }),
    (answer) => metrics().ready.set(answer.status === "ready" ? 1 : 0),
    "readiness",
  );
  const made = {
    registry,
    httpRequests: new Counter({
      ...metric,
      name: "shop_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status class.",
      labelNames: ["method", "route", "status"] as const,
    }),
    httpDuration: new Histogram({
      ...metric,
      name: "shop_http_request_duration_seconds",
      help: "Time from a request's arrival to its response's end, by route pattern and status class.",
      labelNames: ["route", "status"] as const,
      buckets: LATENCY_BUCKETS,
    }),
    pageCache: new Counter({
      ...metric,
      name: "shop_page_cache_requests_total",
      help: "Requests for a cacheable page: hit (served from memory), miss (rendered, then kept) or bypass (an unknown query).",
      labelNames: ["outcome"] as const,
    }),
    ordersPlaced: new Counter({ ...metric, name: "shop_orders_placed_total", help: "Orders placed: written, and their payment page opened." }),
    ordersPaid: new Counter({ ...metric, name: "shop_orders_paid_total", help: "Orders marked paid (once each, whichever path saw the payment first)." }),
    ordersRefunded: new Counter({ ...metric, name: "shop_orders_refunded_total", help: "Paid orders marked refunded (by the owner or from Stripe)." }),
    paymentFailures: new Counter({
      ...metric,
      name: "shop_payment_failures_total",
      help: "Payments that went wrong: a checkout whose payment page could not be opened (stripe_error: Stripe refused or did not answer; total_mismatch: the page's total was not the order's), or a paid session whose amount was not the order's total (paid_amount_mismatch: not marked paid, recorded on the order).",
      labelNames: ["reason"] as const,
    }),
    webhooks: new Counter({
      ...metric,
      name: "shop_stripe_webhooks_total",
      help: "Stripe webhook deliveries: handled, duplicate, bad_signature, bad_shape, or failed (answered 500, Stripe retries).",
      labelNames: ["outcome"] as const,
    }),
    emailsSent: new Counter({ ...metric, name: "shop_emails_sent_total", help: "Emails handed to the mail server." }),
    emailsFailed: new Counter({
      ...metric,
      name: "shop_emails_failed_total",
      help: "Attempts to send an email that failed (retried later unless the email is dead).",
    }),
    emailsDead: new Counter({
      ...metric,
      name: "shop_emails_dead_total",
      help: "Emails given up: refused permanently, out of attempts, or their sender stopped mid-send too often.",
    }),
    outboxBacklog: new Gauge({
      ...metric,
      name: "shop_email_outbox_backlog",
      help: "Emails waiting to be sent or being sent (read from the database: the same on every instance).",
      collect: () => outbox.refresh(),
    }),
    outboxOldestAge: new Gauge({
      ...metric,
      name: "shop_email_outbox_oldest_age_seconds",
      help: "Age of the oldest email still waiting to be sent, 0 when none waits (read from the database).",
      collect: () => outbox.refresh(),
    }),
    outboxDead: new Gauge({
      ...metric,
      name: "shop_email_outbox_dead",
      help: "Dead emails in the outbox (read from the database).",
      collect: () => outbox.refresh(),
    }),
    callDuration: new Histogram({
      ...metric,
      name: "shop_outside_call_duration_seconds",
      help: "Calls to outside services by service (stripe, geocoder) and operation, failed ones included.",
      labelNames: ["service", "operation"] as const,
      buckets: LATENCY_BUCKETS,
    }),
    dbPool: new Gauge({
      ...metric,
      name: "chillpb_db_pool_connections",
      help: "This instance's database connections: idle (open, free), active (lent to a query or transaction) and waiting (queries waiting for one).",
      labelNames: ["state"] as const,
      collect() {
        const pool = poolState();
        this.set({ state: "idle" }, pool.idle);
        this.set({ state: "active" }, pool.active);
        this.set({ state: "waiting" }, pool.waiting);
      },
    }),
    ready: new Gauge({
      ...metric,
      name: "chillpb_ready",
      help: "1 when this instance should get traffic (/readyz answers 200: the database answers, migrations applied, not stopping), 0 when not.",
      collect: () => ready.refresh(),
    }),
    jobLastSuccess: new Gauge({
      ...metric,
      name: "chillpb_job_last_success_timestamp_seconds",
      help: "When each background job (job_name) last ended well, on any instance, or was first seen (read from the database: the same on every instance).",
      labelNames: ["job_name"] as const,
      collect: () => jobs.refresh(),
    }),
    jobPeriod: new Gauge({
      ...metric,
      name: "chillpb_job_period_seconds",
      help: "How often each background job (job_name) is due.",
      labelNames: ["job_name"] as const,
    }),
    jobFailures: new Counter({
      ...metric,
      name: "chillpb_job_failures_total",
      help: "Runs of a background job (job_name) on this instance that failed.",
      labelNames: ["job_name"] as const,
    }),
    callErrors: new Counter({
      ...metric,
      name: "shop_outside_call_errors_total",
      help: "Calls to outside services that failed: an error answer, a timeout or no connection.",
      labelNames: ["service", "operation"] as const,
    }),
  };
  // Every known outcome is exposed from the start, at 0: a rule comparing two of them needs both series.
  for (const outcome of WEBHOOK_OUTCOMES) made.webhooks.inc({ outcome }, 0);
  for (const reason of PAYMENT_FAILURE_REASONS) made.paymentFailures.inc({ reason }, 0);
  return made;
}

/** Readiness at a scrape waits for the database at most this long: a scrape must answer within Prometheus's timeout. */
const READY_SCRAPE_TIMEOUT_MS = 1_000;

/**
 * A figure read from the database (or asked of it) when scraped, shared by
 * the scrapes of OUTBOX_READ_EVERY_MS, however many scrapers ask. A failed
 * read keeps the last figures and logs a warning: a scrape never fails
 * because the database is slow or away.
 */
function sharedReading<T>(read: () => Promise<T>, apply: (value: T) => void, what: string) {
  let readAt = 0;
  let reading: Promise<void> | null = null;
  const refresh = async () => {
    if (reading) return reading;
    if (Date.now() - readAt < OUTBOX_READ_EVERY_MS) return;
    reading = read()
      .then((value) => {
        apply(value);
        readAt = Date.now();
      })
      .catch((error: unknown) => logger.warn({ err: error }, `could not read ${what} for the metrics`))
      .finally(() => (reading = null));
    return reading;
  };
  return { refresh };
}

/** Each job's last success (or first sighting), from the jobs' shared rows. */
function readJobSuccesses() {
  return db.backgroundJob.findMany({ select: { name: true, lastSucceededAt: true } });
}

type OutboxFigures = { backlog: number; oldestAgeSeconds: number; dead: number };

/** One index scan over the rows still to send, and a count of the dead ones. */
async function readOutbox(): Promise<OutboxFigures> {
  const waiting = ["pending", "sending"];
  const row = await sqlDb()
    .selectFrom("OutboxMessage")
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere("status", "in", waiting).as("backlog"),
      // On the database's clock, which stamped the rows (createdAt's default).
      sql<number | null>`EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - ${eb.fn.min("createdAt").filterWhere("status", "in", waiting)})::float8`.as(
        "oldestAgeSeconds",
      ),
      eb.fn.countAll<number>().filterWhere("status", "=", "dead").as("dead"),
    ])
    .where("status", "in", [...waiting, "dead"])
    .executeTakeFirstOrThrow();
  return { backlog: row.backlog, oldestAgeSeconds: Math.max(0, row.oldestAgeSeconds ?? 0), dead: row.dead };
}

type Metrics = ReturnType<typeof createMetrics>;

// One set per process, kept across development rebuilds (a second registration of a name would throw).
const globalForMetrics = globalThis as typeof globalThis & { __metrics?: Metrics };

/** The process's metrics, made on first use. */
export function metrics(): Metrics {
  return (globalForMetrics.__metrics ??= createMetrics());
}

/** "2xx", "4xx", …: the status label of the HTTP metrics. */
export function statusClass(status: number) {
  return `${Math.floor(status / 100)}xx`;
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS", "PUT", "PATCH", "DELETE"]);

/** For the HTTP edge's request log (server/request-log.mjs): one finished request, counted and timed. */
export function observeRequest({ method, route, status, seconds }: { method: string; route: string; status: number; seconds: number }) {
  const { httpRequests, httpDuration } = metrics();
  httpRequests.inc({ method: KNOWN_METHODS.has(method) ? method : "other", route, status: statusClass(status) });
  httpDuration.observe({ route, status: statusClass(status) }, seconds);
}

/** For the page cache (server/page-cache.mjs): how a cacheable page was served. */
export function countPageCache(outcome: "hit" | "miss" | "bypass") {
  metrics().pageCache.inc({ outcome });
}

/** The metrics in Prometheus's text format, for /metrics. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/**
 * Times a call to an outside service and counts it as an error when it
 * throws, or when `failed` says its answer was one; answers what the call
 * answered (or throws what it threw).
 */
export async function timeOutsideCall<T>(
  service: "stripe" | "geocoder",
  operation: string,
  call: () => Promise<T>,
  failed: (answer: T) => boolean = () => false,
): Promise<T> {
  const { callDuration, callErrors } = metrics();
  const stop = callDuration.startTimer({ service, operation });
  try {
    const answer = await call();
    if (failed(answer)) callErrors.inc({ service, operation });
    return answer;
  } catch (error) {
    callErrors.inc({ service, operation });
    throw error;
  } finally {
    stop();
  }
}
