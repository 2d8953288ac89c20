import { http, HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleError } from "~/entry.server";
import { flushErrorReports, reportBackgroundFailure, reportError, scrubText, startErrorReports } from "~/services/error-reports.server";
import { runJobIfDue } from "~/services/jobs.server";
import { handleFunction } from "~/utils/api.server";
import { action as clientErrors } from "~/routes/client-errors";
import { server } from "../setup/msw";
import { callRoute, jsonRequest } from "../utils";
import { trackerEvents } from "../support/error-tracker";

/**
 * Error reports (decision 055): with SENTRY_DSN set, a failed request, a
 * failed function and a browser's error page each reach the tracker as one
 * envelope, with the release and the route, and with no customer data. The
 * tracker is a stand-in on the local network that records what it receives.
 */

const DSN = "http://publickey@127.0.0.1:9/4242";
const ENVELOPES = "http://127.0.0.1:9/api/4242/envelope/";
const CUSTOMER = { email: "maya.rivera@example.com", phone: "(310) 555-0199" };

const received: string[] = [];
beforeEach(() => {
  received.length = 0;
  server.use(
    http.post(ENVELOPES, async ({ request }) => {
      received.push(await request.text());
      return HttpResponse.json({ id: "stand-in" });
    }),
  );
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const events = () => trackerEvents(received);

async function reported() {
  await flushErrorReports();
  return events();
}

describe("without SENTRY_DSN", () => {
  it("nothing is reported, and reporting never throws", async () => {
    reportError(new Error("no tracker configured"), { source: "request" });
    expect(await reported()).toEqual([]);
  });
});

describe("with SENTRY_DSN", () => {
  beforeEach(() => startErrorReports(DSN));

  it("a failed function reaches the tracker once, with its route and the release, and without the customer's email or phone", async () => {
    const response = await handleFunction("get-orders", jsonRequest("/functions/v1/get-orders", {}), async () => {
      throw new TypeError(`Cannot read the order of ${CUSTOMER.email} (call ${CUSTOMER.phone})`);
    });
    expect(response.status).toBe(500);
    const [event, ...more] = await reported();
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      level: "error",
      tags: { source: "function", route: "/functions/v1/get-orders" },
      release: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    const text = JSON.stringify(event);
    expect(text).toContain("TypeError");
    expect(text).toContain("Cannot read the order of [email] (call [number])");
    expect(text).not.toContain(CUSTOMER.email);
    expect(text).not.toContain("555-0199");
    // Frames locate the fault.
    expect(text).toContain("error-reports.test.ts");
  });

  it("an error a page's loader or action throws (handleError) is reported with its path and no query", async () => {
    const request = new Request(`http://shop.test/checkout?email=${encodeURIComponent(CUSTOMER.email)}`, { method: "POST" });
    handleError(new RangeError("the total went negative"), { request, params: {}, context: { clientAddress: "127.0.0.1" } });
    const [event] = await reported();
    expect(event).toMatchObject({ tags: { source: "request", route: "/checkout" }, extra: { method: "POST" } });
    expect(JSON.stringify(event)).not.toContain(CUSTOMER.email);
  });

  it("a browser's error page is reported through /client-errors, scrubbed; a bad body is refused", async () => {
    const response = await callRoute(
      clientErrors,
      jsonRequest("/client-errors", { message: `TypeError: x is undefined for ${CUSTOMER.email}`, path: "/checkout" }),
    );
    expect(response.status).toBe(204);
    const [event] = await reported();
    expect(event).toMatchObject({ level: "error", tags: { source: "browser", route: "/checkout" }, message: "TypeError: x is undefined for [email]" });

    const refused = await callRoute(clientErrors, jsonRequest("/client-errors", { message: "x", path: "https://elsewhere.example/" }));
    expect(refused.status).toBe(400);
  });
});

describe("background work, with SENTRY_DSN", () => {
  beforeEach(() => startErrorReports(DSN));

  it("a background job that fails is reported with its name, and a run that met the database away is not", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const name = `report-job-${Date.now()}`;
    const broken = {
      name,
      everyMs: 60_000,
      leaseMs: 30_000,
      run: async (): Promise<string> => Promise.reject(new RangeError(`no slot for ${CUSTOMER.email}`)),
    };
    expect(await runJobIfDue(broken, "reports-instance")).toBe("failed");
    const [event, ...more] = await reported();
    expect(more).toEqual([]);
    expect(event).toMatchObject({ level: "error", tags: { source: "job", job: name } });
    expect(JSON.stringify(event)).toContain("RangeError");
    expect(JSON.stringify(event)).not.toContain(CUSTOMER.email);

    received.length = 0;
    const away = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    const outage = { ...broken, name: `${name}-outage`, run: async (): Promise<string> => Promise.reject(away) };
    expect(await runJobIfDue(outage, "reports-instance")).toBe("failed");
    expect(await reported()).toEqual([]);
  });

  it("the email worker's failed pass is reported; an outage only warned of", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    reportBackgroundFailure(new TypeError("cannot read the row"), "Outbox worker pass", { source: "outbox" });
    const [event] = await reported();
    expect(event).toMatchObject({ tags: { source: "outbox" } });
    received.length = 0;
    reportBackgroundFailure(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), "Outbox worker pass", {
      source: "outbox",
    });
    expect(await reported()).toEqual([]);
    expect(warned).toHaveBeenCalledWith(expect.stringContaining("Outbox worker pass found the database busy or away: Error ECONNREFUSED"));
  });
});

describe("scrubText", () => {
  it.each([
    ["write to maya.rivera+shop@example.co.uk today", "write to [email] today"],
    ["call 310-555-0199 or +1 (310) 555 0199", "call [number] or [number]"],
    ["card 4242 4242 4242 4242 declined", "card [number] declined"],
    ["order 3 of 12, status 500", "order 3 of 12, status 500"],
  ])("%s → %s", (text, scrubbed) => {
    expect(scrubText(text)).toBe(scrubbed);
  });
});
