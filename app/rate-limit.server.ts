import { json } from "@remix-run/node";
import { db } from "~/db.server";
import { env } from "~/env.server";

/**
 * Requests per client address per minute on each public form and function
 * (DESIGN.md §7), counted in the database so that the limit holds across
 * server instances. Fixed one-minute windows.
 */

export type RateLimitScope = "newsletter" | "partnership" | "discount" | "delivery" | "checkout";

export const tooManyRequests = {
  title: "Slow down a little",
  description: "You've tried that a lot in the last minute. Please wait a moment and try again.",
  destructive: true,
};

export async function hitRateLimit(scope: RateLimitScope, clientAddress: string, now = Date.now()) {
  const window = Math.floor(now / 60_000);
  const key = `${scope}:${clientAddress}:${window}`;
  const row = await db.rateLimitWindow.upsert({
    where: { key },
    create: { key, count: 1, expiresAt: new Date((window + 2) * 60_000) },
    update: { count: { increment: 1 } },
  });
  return {
    allowed: row.count <= env.RATE_LIMIT_PER_MINUTE,
    retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000)),
  };
}

/** For the JSON functions: throws a 429 answer when the address is over its limit. */
export async function enforceRateLimit(scope: RateLimitScope, clientAddress: string) {
  const { allowed, retryAfterSeconds } = await hitRateLimit(scope, clientAddress);
  if (!allowed) {
    throw json(
      { error: tooManyRequests.description },
      { status: 429, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
    );
  }
}
