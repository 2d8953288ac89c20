import Stripe from "stripe";

/**
 * An error as a log line: its kind (Stripe's type and status, else its name),
 * its code (Prisma's P2002, a socket's ECONNRESET …) and the first line of its
 * message. Never the error object itself: Prisma's messages go on to print the
 * query with its arguments (emails, addresses), and its `meta` can hold values.
 */
export function describeError(error: unknown) {
  if (!(error instanceof Error)) return `a thrown ${typeof error}`;
  const code = "code" in error && (typeof error.code === "string" || typeof error.code === "number") ? String(error.code) : null;
  const kind = error instanceof Stripe.errors.StripeError ? `${error.type}${error.statusCode ? ` (${error.statusCode})` : ""}` : error.name;
  const line = error.message.split("\n").find((text) => text.trim())?.trim() ?? "";
  const short = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  return `${kind}${code ? ` ${code}` : ""}: ${short || "(no message)"}`;
}
