import {
  Client,
  captureException,
  captureMessage,
  createStackParser,
  createTransport,
  dedupeIntegration,
  eventFromMessage,
  eventFromUnknownInput,
  flush,
  getClient,
  initAndBind,
  linkedErrorsIntegration,
  type ClientOptions,
  type ErrorEvent,
  type Event,
  type EventHint,
  type SeverityLevel,
  type StackLineParser,
  type Transport,
} from "@sentry/core";
import { shouldRetryLater } from "~/utils/database-errors.server";
import { env } from "~/utils/env.server";
import { describeError } from "~/utils/errors.server";
import { release } from "~/utils/release.server";

/**
 * Error reports to an error tracker (decision 055): when SENTRY_DSN is set,
 * every error a request fails with (handleError, handleFunction) and every
 * error page a browser shows (/client-errors) is sent to Sentry, through the
 * Sentry SDK's core with a fetch transport. Customer data is scrubbed before
 * an event leaves the process: no request body, cookies, headers, query or
 * user; email addresses, phone numbers and card-like digit runs in any text
 * become placeholders.
 */

const EMAIL_ADDRESS = /[^\s"'<>@\\/]+@[^\s"'<>@\\]+\.[A-Za-z]{2,}/g;
/** Phone numbers and other long digit runs (a card number, an order's street number with a ZIP), with the usual separators. */
const DIGIT_RUN = /\+?\(?\d[\d\s().-]{6,}\d/g;

export function scrubText(text: string): string {
  return text.replace(EMAIL_ADDRESS, "[email]").replace(DIGIT_RUN, "[number]");
}

/** A V8 stack line: "    at fn (file:line:col)" or "    at file:line:col". */
const v8Line: StackLineParser = [
  30,
  (line) => {
    const match = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (!match) return undefined;
    const [, fn, file = "", lineno, colno] = match;
    return {
      function: fn ?? "?",
      filename: file,
      lineno: Number(lineno),
      colno: Number(colno),
      in_app: !file.includes("node_modules") && !file.startsWith("node:"),
    };
  },
];
const stackParser = createStackParser(v8Line);

class ShopErrorClient extends Client<ClientOptions> {
  // Client's constructor is protected; initAndBind needs a public one.
  public constructor(options: ClientOptions) {
    super(options);
  }
  eventFromException(exception: unknown, hint?: EventHint): PromiseLike<Event> {
    return Promise.resolve(eventFromUnknownInput(this, stackParser, exception, hint));
  }
  eventFromMessage(message: string, level: SeverityLevel = "info", hint?: EventHint): PromiseLike<Event> {
    return Promise.resolve(eventFromMessage(stackParser, message, level, hint));
  }
}

/** Keeps what locates a fault (kinds, frames, the route) and drops or masks anything a customer typed. */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  delete event.user;
  delete event.breadcrumbs;
  if (event.request) event.request = { method: event.request.method, url: event.request.url?.split("?")[0] };
  if (event.message) event.message = scrubText(event.message);
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = scrubText(exception.value);
    for (const frame of exception.stacktrace?.frames ?? []) delete frame.vars;
  }
  if (event.extra)
    event.extra = Object.fromEntries(Object.entries(event.extra).map(([key, value]) => [key, typeof value === "string" ? scrubText(value) : value]));
  return event;
}

function fetchTransport(options: Parameters<typeof createTransport>[0] & { url: string }): Transport {
  return createTransport(options, async (request) => {
    const response = await fetch(options.url, { method: "POST", body: request.body as BodyInit, signal: AbortSignal.timeout(5_000) });
    return {
      statusCode: response.status,
      headers: { "retry-after": response.headers.get("retry-after"), "x-sentry-rate-limits": response.headers.get("x-sentry-rate-limits") },
    };
  });
}

/** Starts reporting when SENTRY_DSN is set (idempotent); server.mjs calls it once the build is loaded. */
export function startErrorReports(dsn = env.SENTRY_DSN) {
  if (!dsn || getClient()) return;
  initAndBind(ShopErrorClient, {
    dsn,
    release: release.commit ? `${release.version}+${release.commit.slice(0, 12)}` : release.version,
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    sendDefaultPii: false,
    stackParser,
    integrations: [dedupeIntegration(), linkedErrorsIntegration()],
    transport: fetchTransport as ClientOptions["transport"],
    beforeSend: scrubEvent,
  });
}

/** Where an error was met: a request, a function, a browser's error page, a background job, the email worker, or the process itself (nothing caught it). */
export type ErrorContext = {
  source: "request" | "function" | "browser" | "job" | "outbox" | "process" | "payment";
  route?: string;
  method?: string;
  job?: string;
};

/** Reports an error (a no-op without SENTRY_DSN). Never throws: a tracker that is down is not the request's problem. */
export function reportError(error: unknown, context: ErrorContext) {
  if (!getClient()) return;
  try {
    captureException(error, {
      level: "error",
      tags: { source: context.source, ...(context.route && { route: context.route }), ...(context.job && { job: context.job }) },
      extra: { method: context.method },
    });
  } catch {
    // Reporting is best effort.
  }
}

/**
 * Background work that failed (a job, the email worker's pass): one log line
 * (`what` failed, and why, with its frames), and a report like a request's.
 * The database busy or away is an outage that /readyz and its alert already
 * tell, not this work's fault: a warning only, so an outage does not send a
 * report every few seconds (decision 080).
 */
export function reportBackgroundFailure(error: unknown, what: string, context: ErrorContext) {
  if (shouldRetryLater(error)) {
    console.warn(`${what} found the database busy or away: ${describeError(error)}`);
    return;
  }
  console.error(`${what} failed: ${describeError(error)}`);
  reportError(error, context);
}

/** A browser's error page, as /client-errors hears of it: a message, scrubbed like every event. */
export function reportBrowserError(message: string, route: string) {
  if (!getClient()) return;
  captureMessage(scrubText(message), { level: "error", tags: { source: "browser", route } });
}

/** Waits for reports still on their way (tests, and a stopping server). */
export function flushErrorReports(timeoutMs = 2_000) {
  return getClient() ? flush(timeoutMs) : Promise.resolve(true);
}
