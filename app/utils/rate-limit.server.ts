import { createHash } from "node:crypto";
import { json } from "@remix-run/node";
import { at, db, instant, isUniqueViolation, sqlDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";

/**
 * Requests per client address per minute on each public form and function,
 * counted in the database so that the limit holds across server instances.
 * A window starts with an address's first request and lasts a minute (not a
 * clock minute, which a burst could straddle to get twice the limit).
 */

/**
 * "verify" (verify-payment and /order-success, one shared count) and
 * "check-secrets" guard endpoints that spend the Stripe API budget or describe
 * the setup.
 */
export type RateLimitScope = "newsletter" | "partnership" | "discount" | "delivery" | "checkout" | "verify" | "check-secrets" | "client-errors";

export const tooManyRequests = {
  title: "Slow down a little",
  description: "You've tried that a lot in the last minute. Please wait a moment and try again.",
  destructive: true,
};

const WINDOW_MS = 60_000;

/** An IPv6 address with a zone is at most 45 characters; anything longer is stored by its hash. */
const MAX_ADDRESS_IN_KEY = 64;

/**
 * The client address as a key holds it: as it is when it is short, hashed
 * when it is not, so no request can store a key of its own length (an
 * 8,000-character X-Forwarded-For once did).
 */
function addressInKey(clientAddress: string) {
  if (clientAddress.length <= MAX_ADDRESS_IN_KEY) return clientAddress;
  return `sha256:${createHash("sha256").update(clientAddress).digest("hex")}`;
}

export async function hitRateLimit(scope: RateLimitScope, clientAddress: string, now = Date.now()) {
  const key = `${scope}:${addressInKey(clientAddress)}`;
  // One statement: a window that has run out starts again with this request, on whichever instance.
  // Through Kysely on node-pg (decisions 068, 084): every public form and the order path pass here.
  const started = new Date(now);
  const expiresAt = new Date(now + WINDOW_MS);
  const row = await sqlDb()
    .insertInto("RateLimitWindow")
    .values({ key, count: 1, expiresAt: at(expiresAt) })
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet((eb) => {
        const runOut = eb("RateLimitWindow.expiresAt", "<=", instant(started));
        return {
          count: eb
            .case()
            .when(runOut)
            .then(1)
            .else(eb("RateLimitWindow.count", "+", 1))
            .end(),
          expiresAt: eb.case().when(runOut).then(instant(expiresAt)).else(eb.ref("RateLimitWindow.expiresAt")).end(),
        };
      }),
    )
    .returning(["count", "expiresAt"])
    .executeTakeFirstOrThrow();
  return {
    allowed: row.count <= env.RATE_LIMIT_PER_MINUTE,
    retryAfterSeconds: Math.max(1, Math.ceil((row.expiresAt.getTime() - now) / 1000)),
  };
}

/** For the JSON functions: throws a 429 answer when the address is over its limit. */
export async function enforceRateLimit(scope: RateLimitScope, clientAddress: string) {
  const { allowed, retryAfterSeconds } = await hitRateLimit(scope, clientAddress);
  if (!allowed) {
    throw json({ error: tooManyRequests.description }, { status: 429, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } });
  }
}

// --- Growing delays ---------------------------------------------------------

/**
 * A counter of failures that answers with growing delays instead of a hard
 * lock (used by operator sign-in, app/utils/auth.server.ts). After `freeAttempts`
 * failures the key must wait `baseDelayMs`, and each further failure doubles
 * the wait, up to `maxDelayMs`; tries during a wait are refused and not
 * counted. The count is forgotten `memoryMs` after the last wait ends with no
 * new failure.
 *
 * Stored in RateLimitWindow, one row per key: `count` is the failures and
 * `expiresAt` is the end of the wait plus `memoryMs`, so the wait ends at
 * `expiresAt - memoryMs` and the row can be swept once it expires
 * (the rate-limit-sweep job in app/services/background-work.server.ts).
 */
export type BackoffPolicy = { freeAttempts: number; baseDelayMs: number; maxDelayMs: number; memoryMs: number };

type BackoffState = { count: number; expiresAt: Date };

/** A counted attempt, so that it can be taken back. */
export type BackoffReservation = { key: string; before: BackoffState | null; after: BackoffState };

export type BackoffCheck = { allowed: true; reservation: BackoffReservation } | { allowed: false; retryAfterMs: number };

/** How long a key must wait after its `failures`-th failure. */
function backoffDelayMs(policy: BackoffPolicy, failures: number) {
  if (failures < policy.freeAttempts) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(failures - policy.freeAttempts, 40));
}

/**
 * Counts an attempt for the key before the caller checks anything, unless the
 * key is waiting. Compare-and-set on the row, so a burst of simultaneous
 * attempts cannot slip past the limit.
 */
export async function reserveBackoffAttempt(key: string, policy: BackoffPolicy, now = Date.now()): Promise<BackoffCheck> {
  for (let tries = 0; tries < 50; tries++) {
    const row = await db.rateLimitWindow.findUnique({ where: { key } });
    const live = row && row.expiresAt.getTime() > now ? row : null;
    const count = live?.count ?? 0;
    // Below the free attempts there is no wait (whatever another server's clock wrote).
    const waitUntil = live && count >= policy.freeAttempts ? live.expiresAt.getTime() - policy.memoryMs : now;
    if (waitUntil > now) return { allowed: false, retryAfterMs: waitUntil - now };

    const after = { count: count + 1, expiresAt: new Date(now + backoffDelayMs(policy, count + 1) + policy.memoryMs) };
    if (row) {
      const before = { count: row.count, expiresAt: row.expiresAt };
      const { count: changed } = await db.rateLimitWindow.updateMany({ where: { key, ...before }, data: after });
      if (changed === 1) return { allowed: true, reservation: { key, before, after } };
    } else {
      try {
        await db.rateLimitWindow.create({ data: { key, ...after } });
        return { allowed: true, reservation: { key, before: null, after } };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    // Another attempt changed the row first: look again.
  }
  // Heavy contention on one key is itself a burst: refuse this attempt.
  return { allowed: false, retryAfterMs: policy.baseDelayMs };
}

/** Takes a counted attempt back (it was not a failure after all). */
export async function releaseBackoffAttempt({ key, before, after }: BackoffReservation) {
  const where = { key, ...after };
  const { count: restored } = before ? await db.rateLimitWindow.updateMany({ where, data: before }) : await db.rateLimitWindow.deleteMany({ where });
  // Later attempts changed the row meanwhile: keep their wait, take back only the count.
  if (restored === 0) {
    await db.rateLimitWindow.updateMany({ where: { key, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
  }
}

/** Forgets every failure of the key. */
export async function clearBackoff(key: string) {
  await db.rateLimitWindow.deleteMany({ where: { key } });
}

/** Deletes expired rate-limit rows of every kind; answers how many. */
export async function sweepExpiredRateLimits(now = Date.now()) {
  const { count } = await db.rateLimitWindow.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  return count;
}
