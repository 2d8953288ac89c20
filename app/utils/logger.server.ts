import { AsyncLocalStorage } from "node:async_hooks";
import { hostname } from "node:os";
import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { env } from "~/utils/env.server";
import { describeError } from "~/utils/errors.server";

/**
 * The process's one logger (decision 047): JSON lines on stdout (or
 * LOG_FILE), pretty in development. Every line carries the time, the level,
 * the instance and, inside a request, that request's id and route, which the
 * HTTP edge (server/request-log.mjs) puts in `requestContext`, so a model's
 * line needs no `request` argument.
 *
 * Customer data never reaches a line:
 * - log ids, statuses and counts, never a customer's email, name, phone or
 *   address; fields that could hold them are redacted by name;
 * - an error is logged as `describeError` makes it (its class, code and the
 *   first line of its message), never the object: Prisma's messages go on to
 *   print the query with its arguments. `err` and `error` fields pass through
 *   it whatever the caller gave;
 * - last, any email address left in a written line becomes "[email]".
 */

/** What a request's log lines carry. */
export type RequestContext = { requestId: string; route: string };

/** Field names whose values are customer data or secrets, wherever they appear in a logged object. */
const REDACTED_FIELDS = [
  "email",
  "customerEmail",
  "to",
  "firstName",
  "lastName",
  "customerName",
  "phone",
  "address",
  "shipping",
  "password",
  "token",
  "cookie",
  "authorization",
];

const EMAIL_ADDRESS = /[^\s"'<>@\\]+@[^\s"'<>@\\]+\.[A-Za-z]{2,}/g;

/**
 * A written line with every email address in it replaced by "[email]". A line
 * without an @ holds none: most lines (every request's) skip the pattern,
 * which was 3% of the CPU of a page served from the cache.
 */
export const maskEmails = (line: string) => (line.includes("@") ? line.replace(EMAIL_ADDRESS, "[email]") : line);

const errorText = (value: unknown) => (value instanceof Error || (typeof value === "object" && value !== null) ? describeError(value) : value);

const development = env.NODE_ENV === "development";

/** What every line has: the level, the time, the instance, and no email address in it. */
const common: LoggerOptions = {
  level: env.LOG_LEVEL,
  base: { instance: `${hostname()}:${process.pid}` },
  timestamp: pino.stdTimeFunctions.isoTime,
  // Level names rather than numbers in JSON; pino-pretty reads the numbers.
  formatters: development ? {} : { level: (label) => ({ level: label }) },
  hooks: { streamWrite: maskEmails },
};

function createDestination() {
  return development
    ? pino.transport({ target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,instance" } })
    : pino.destination({ dest: env.LOG_FILE ?? 1, sync: true, mkdir: true });
}

function createLogger(destination: DestinationStream): Logger {
  return pino(
    {
      ...common,
      mixin: () => requestContext.getStore() ?? {},
      redact: { paths: REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`]), censor: "[redacted]" },
      serializers: { err: errorText, error: errorText },
    },
    destination,
  );
}

/**
 * The HTTP edge's line per request (server/request-log.mjs), to the same
 * destination: its fields are fixed and hold no customer data (the path's
 * query values are left out before it is logged), and it names its request
 * itself, so it skips the redaction and the context lookup, which were a
 * third of its cost and 6% of the CPU of a page served from the cache. An
 * email address in it is still masked.
 */
function createRequestLineLogger(destination: DestinationStream): Logger {
  return pino(common, destination);
}

const globalForLog = globalThis as typeof globalThis & {
  __requestContext?: AsyncLocalStorage<RequestContext>;
  __logDestination?: DestinationStream;
  __logger?: Logger;
  __requestLineLogger?: Logger;
};

/** One store per process, shared by every build a development server loads. */
export const requestContext = (globalForLog.__requestContext ??= new AsyncLocalStorage<RequestContext>());

const destination = (globalForLog.__logDestination ??= createDestination());

export const logger = (globalForLog.__logger ??= createLogger(destination));

export const requestLineLogger = (globalForLog.__requestLineLogger ??= createRequestLineLogger(destination));

/** One console argument as log text: strings and numbers as they are, an error (or any object) as describeError says it. */
function consoleText(args: unknown[]) {
  return args.map((arg) => (typeof arg === "string" ? arg : typeof arg === "number" || typeof arg === "boolean" ? String(arg) : describeError(arg))).join(" ");
}

/**
 * The shop's own console.* calls become log lines of the matching level,
 * with the request's id and route, in LOG_FILE when it is set; an error
 * object passed to them is described, never printed whole (a Prisma error
 * prints the query's arguments: customer data). Not under test, where
 * tests watch the console itself.
 */
export function routeConsoleToLogger() {
  if (env.NODE_ENV === "test") return;
  // Node prints its process warnings (an experimental feature touched, a deprecation) through console.error, which
  // made each one an error line: on Node 26 every demo start logged "ExperimentalWarning: localStorage is not
  // available…", raised when MSW's cookie store looks for localStorage. They are warnings, with their name and code.
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    const code = "code" in warning && typeof warning.code === "string" ? warning.code : undefined;
    logger.warn({ warning: warning.name, ...(code && { code }) }, warning.message);
  });
  console.error = (...args: unknown[]) => logger.error(consoleText(args));
  console.warn = (...args: unknown[]) => logger.warn(consoleText(args));
  console.info = (...args: unknown[]) => logger.info(consoleText(args));
  console.log = (...args: unknown[]) => logger.info(consoleText(args));
}
