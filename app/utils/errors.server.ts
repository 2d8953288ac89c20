import Stripe from "stripe";

/**
 * An error as a log line: its kind (Stripe's type and status, else its name),
 * its code (Prisma's P2002, a socket's ECONNRESET …), the first line of its
 * message and the top frames in the shop's own code. Never the error object
 * itself: Prisma's messages go on to print the query with its arguments
 * (emails, addresses), and its `meta` can hold values.
 */
export function describeError(error: unknown) {
  if (!(error instanceof Error)) return `a thrown ${typeof error}`;
  const code = "code" in error && (typeof error.code === "string" || typeof error.code === "number") ? String(error.code) : null;
  const kind = error instanceof Stripe.errors.StripeError ? `${error.type}${error.statusCode ? ` (${error.statusCode})` : ""}` : error.name;
  const line =
    error.message
      .split("\n")
      .find((text) => text.trim())
      ?.trim() ?? "";
  const short = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  const frames = ownFrames(error);
  return `${kind}${code ? ` ${code}` : ""}: ${short || "(no message)"}${frames.length > 0 ? ` [at ${frames.join(" < ")}]` : ""}`;
}

/** A V8 stack line: "    at fn (file:line:col)", "    at file:line:col", "    at async fn (file:line:col)". */
const STACK_LINE = /^\s*at (?:async )?(?:(.+?) \()?(?:file:\/\/)?(\/[^()]+?):(\d+):\d+\)?$/;

/** Where the shop's own code starts (the release folder): frames under it, outside node_modules, are the shop's. */
const ROOT = `${process.cwd()}/`;

/**
 * The top frames of `error`'s stack that are in the shop's own files, as
 * "app/models/orders.server.ts:245 (reserveAndCreate)", innermost first: the
 * file and line an on-call engineer opens (decision 080). The server build's
 * source map turns build/index.js back into these files (server.mjs). Only
 * paths and function names: never the message part of the stack, which can
 * hold values.
 */
export function ownFrames(error: Error, count = 3): string[] {
  const frames: string[] = [];
  for (const text of (error.stack ?? "").split("\n").slice(1)) {
    const match = STACK_LINE.exec(text);
    if (!match) continue;
    const [, fn, file = "", lineNumber] = match;
    if (!file.startsWith(ROOT) || file.includes("/node_modules/")) continue;
    frames.push(`${file.slice(ROOT.length)}:${lineNumber}${fn && fn !== "<anonymous>" ? ` (${fn.replace(/^Object\./, "")})` : ""}`);
    if (frames.length === count) break;
  }
  return frames;
}
