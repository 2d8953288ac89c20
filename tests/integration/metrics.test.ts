import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { http, HttpResponse, passthrough } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addressAllowList, metricsEndpoint } from "../../server/metrics.mjs";
import { requestLog } from "../../server/request-log.mjs";
import { db } from "~/utils/db.server";
import { parseEnv } from "~/utils/env.server";
import { requestContext } from "~/utils/logger.server";
import { observeRequest, OUTBOX_READ_EVERY_MS, renderMetrics } from "~/utils/metrics.server";
import { subscribe } from "~/models/newsletter.server";
import { processOutbox } from "~/services/outbox.server";
import { runJobIfDue, startJobs } from "~/services/jobs.server";
import { callFunction, checkoutBody, deliverStripeEvent, payOrder, placeOrder, uniqueEmail } from "../utils";
import { server as msw } from "../setup/msw";

/**
 * /metrics (decision 049): who may read it, and that the shop's own counters
 * move when orders, payments, webhooks and emails do. The scrape by a real
 * Prometheus server is tests/e2e/prometheus.spec.ts.
 */

const STRIPE_SESSIONS = "https://api.stripe.com/v1/checkout/sessions";

/** One sample's value in Prometheus's text format; 0 when the series is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{(.*)\}/)?.[1] ?? "";
    const present = labelText.split(",").filter(Boolean);
    if (wanted.every((pair) => present.includes(pair))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

async function scrape() {
  return (await renderMetrics()).body;
}

/** How much each named sample moved while `work` ran. */
async function change(samples: Record<string, [name: string, labels?: Record<string, string>]>, work: () => Promise<unknown>) {
  const before = await scrape();
  await work();
  const after = await scrape();
  return Object.fromEntries(Object.entries(samples).map(([key, [name, labels]]) => [key, sample(after, name, labels) - sample(before, name, labels)]));
}

describe("who may read /metrics", () => {
  const servers: Server[] = [];
  beforeEach(() => msw.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough())));
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });

  async function shopEdge(allow: string[], trustProxy: false | number = false) {
    const app = express();
    app.set("trust proxy", trustProxy);
    app.use(requestLog({ logger: () => ({ info() {}, error() {} }) as never, requestContext: () => requestContext, onFinish: observeRequest }));
    app.use(metricsEndpoint({ allowed: addressAllowList(allow), render: renderMetrics, requestContext: () => requestContext }));
    app.use((_req, res) => void res.status(404).send("not found"));
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await once(server, "listening");
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("answers the loopback (the default) in Prometheus's text format, uncached", async () => {
    const origin = await shopEdge(parseEnv({}).METRICS_ALLOW);
    const response = await fetch(`${origin}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    for (const name of ["shop_orders_placed_total", "shop_http_requests_total", "nodejs_eventloop_lag_seconds", "process_resident_memory_bytes"]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it("answers 404 to an address not allowed, and to everyone with METRICS_ALLOW=none", async () => {
    for (const allow of [["10.0.0.0/8"], parseEnv({ METRICS_ALLOW: "none" }).METRICS_ALLOW]) {
      const origin = await shopEdge(allow);
      const response = await fetch(`${origin}/metrics`);
      expect(response.status, JSON.stringify(allow)).toBe(404);
      expect(await response.text()).not.toContain("shop_");
    }
  });

  it("judges the connection's own address, never X-Forwarded-For, and refuses what came through a proxy", async () => {
    // Behind a trusted proxy on the same machine, a visitor's request arrives on the loopback with the header.
    const proxied = await shopEdge(["loopback"], 1);
    expect((await fetch(`${proxied}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.9" } })).status).toBe(404);
    expect((await fetch(`${proxied}/metrics`)).status).toBe(200);
    // A client that is not allowed cannot write its way in: the header that names an allowed address counts for nothing.
    const closed = await shopEdge(["10.0.0.0/8"], 1);
    expect((await fetch(`${closed}/metrics`, { headers: { "X-Forwarded-For": "10.0.0.7" } })).status).toBe(404);
    const open = await shopEdge(["loopback"], false);
    expect((await fetch(`${open}/metrics`, { headers: { "X-Forwarded-For": "127.0.0.1" } })).status).toBe(404);
  });

  it("counts requests by route pattern and status class, /metrics itself included", async () => {
    const origin = await shopEdge(["loopback"]);
    const moved = await change({ scrapes: ["shop_http_requests_total", { method: "GET", route: "/metrics", status: "2xx" }] }, async () => {
      await (await fetch(`${origin}/metrics`)).text();
      await (await fetch(`${origin}/metrics`)).text();
    });
    // The second scrape's own request is counted once its response has ended, after this scrape.
    expect(moved.scrapes).toBeGreaterThanOrEqual(1);
  });

  it.each([
    [["loopback"], "127.0.0.1", true],
    [["loopback"], "::ffff:127.0.0.1", true],
    [["loopback"], "::1", true],
    [["loopback"], "10.1.2.3", false],
    [["uniquelocal"], "192.168.4.5", true],
    [["10.0.0.0/8", "2001:db8::7"], "10.200.0.1", true],
    [["10.0.0.0/8", "2001:db8::7"], "2001:db8::7", true],
    [["10.0.0.0/8", "2001:db8::7"], "2001:db8::8", false],
    [[], "127.0.0.1", false],
    [["loopback"], "unknown", false],
  ])("the list %j lets %s in: %s", (entries, address, allowed) => {
    expect(addressAllowList(entries)(address)).toBe(allowed);
  });

  it("refuses a METRICS_ALLOW that is not a list of addresses", () => {
    expect(() => parseEnv({ METRICS_ALLOW: "everyone" })).toThrow(/METRICS_ALLOW: not "none" or a list/);
    expect(parseEnv({ METRICS_ALLOW: "127.0.0.1, 10.0.0.0/8" }).METRICS_ALLOW).toEqual(["127.0.0.1", "10.0.0.0/8"]);
  });
});

/** A scrape after the outbox gauges' cache has run out (they are read at most every OUTBOX_READ_EVERY_MS). */
let clockAhead = 0;
async function scrapeOutboxAgain() {
  const realNow = Date.now.bind(Date);
  clockAhead += OUTBOX_READ_EVERY_MS;
  const ahead = clockAhead;
  const clock = vi.spyOn(Date, "now").mockImplementation(() => realNow() + ahead);
  try {
    return await scrape();
  } finally {
    clock.mockRestore();
  }
}

describe("the shop's own counters", () => {
  it("an order placed, paid (once, however often it is verified) and its Stripe calls", async () => {
    let sessionId = "";
    const moved = await change(
      {
        placed: ["shop_orders_placed_total"],
        paid: ["shop_orders_paid_total"],
        sessionsCreated: ["shop_outside_call_duration_seconds_count", { service: "stripe", operation: "checkout.sessions.create" }],
        stripeErrors: ["shop_outside_call_errors_total", { service: "stripe", operation: "checkout.sessions.create" }],
      },
      async () => {
        ({ sessionId } = await placeOrder());
        await payOrder(sessionId);
        await callFunction("verify-payment", { sessionId });
      },
    );
    expect(moved).toEqual({ placed: 1, paid: 1, sessionsCreated: 1, stripeErrors: 0 });
  });

  it("a checkout whose payment page Stripe would not open is a payment failure, not an order placed", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    msw.use(http.post(STRIPE_SESSIONS, () => HttpResponse.json({ error: { type: "api_error", message: "boom" } }, { status: 500 })));
    const moved = await change(
      {
        placed: ["shop_orders_placed_total"],
        failures: ["shop_payment_failures_total", { reason: "stripe_error" }],
        stripeErrors: ["shop_outside_call_errors_total", { service: "stripe", operation: "checkout.sessions.create" }],
      },
      async () => expect((await callFunction("simple-checkout", checkoutBody([["bites-variety", 3]]))).status).toBeGreaterThanOrEqual(400),
    );
    expect(moved).toEqual({ placed: 0, failures: 1, stripeErrors: 1 });
  });

  it("a webhook with a bad signature", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const moved = await change({ badSignature: ["shop_stripe_webhooks_total", { outcome: "bad_signature" }] }, async () => {
      expect((await deliverStripeEvent(JSON.stringify({ id: "evt_1", type: "x", data: { object: {} } }), { signature: "t=1,v1=forged" })).status).toBe(400);
    });
    expect(moved).toEqual({ badSignature: 1 });
  });

  it("emails sent, failed and dead, and the outbox's backlog and dead rows as the database has them", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await db.outboxMessage.deleteMany();
    await subscribe(uniqueEmail("metrics-a"), "http://shop.test");
    await subscribe(uniqueEmail("metrics-b"), "http://shop.test");
    await db.outboxMessage.updateMany({ data: { createdAt: new Date(Date.now() - 90_000) } });
    const waiting = await scrapeOutboxAgain();
    expect(sample(waiting, "shop_email_outbox_backlog")).toBe(2);
    expect(sample(waiting, "shop_email_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(89);

    const refused = Object.assign(new Error("550 no such user"), { code: "EENVELOPE", responseCode: 550 });
    let sends = 0;
    const moved = await change({ sent: ["shop_emails_sent_total"], failed: ["shop_emails_failed_total"], dead: ["shop_emails_dead_total"] }, async () => {
      await processOutbox({ mailer: { send: async () => (sends++ === 0 ? undefined : Promise.reject(refused)) }, workerId: "metrics", concurrency: 1 });
    });
    expect(moved).toEqual({ sent: 1, failed: 1, dead: 1 });

    const drained = await scrapeOutboxAgain();
    expect(sample(drained, "shop_email_outbox_backlog")).toBe(0);
    expect(sample(drained, "shop_email_outbox_oldest_age_seconds")).toBe(0);
    expect(sample(drained, "shop_email_outbox_dead")).toBe(1);
  });

  it("the database pool, readiness, and each background job's last success, period and failures", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const name = `metrics-job-${Date.now()}`;
    let fail = false;
    const job = { name, everyMs: 120_000, leaseMs: 30_000, run: async () => (fail ? Promise.reject(new TypeError("the sweep broke")) : "swept") };
    startJobs([job]);
    const started = Date.now();
    expect(await runJobIfDue(job, "metrics-instance", new Date(started))).toBe("ran");
    fail = true;
    const failures = await change({ failed: ["chillpb_job_failures_total", { job_name: name }] }, () =>
      runJobIfDue(job, "metrics-instance", new Date(started + 130_000)),
    );
    expect(failures).toEqual({ failed: 1 });

    const text = await scrapeOutboxAgain();
    for (const state of ["idle", "active", "waiting"]) expect(text).toMatch(new RegExp(`^chillpb_db_pool_connections\\{state="${state}"\\} \\d+$`, "m"));
    expect(sample(text, "chillpb_db_pool_connections", { state: "idle" }) + sample(text, "chillpb_db_pool_connections", { state: "active" })).toBeGreaterThan(
      0,
    );
    expect(sample(text, "chillpb_ready")).toBe(1);
    expect(sample(text, "chillpb_job_period_seconds", { job_name: name })).toBe(120);
    // The failed run left the last success where the good one put it.
    const lastSuccess = sample(text, "chillpb_job_last_success_timestamp_seconds", { job_name: name });
    expect(Math.abs(lastSuccess * 1000 - started)).toBeLessThan(5_000);
  });
});
