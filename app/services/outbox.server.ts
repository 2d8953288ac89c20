import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { db } from "~/utils/db.server";
import type { EmailContent } from "~/services/emails.server";
import { env } from "~/utils/env.server";
import type { Prisma } from "~/generated/prisma/client";
import { createMailer, isPermanentFailure, SMTP_TIMEOUTS, type Mailer } from "~/services/mailer.server";

/**
 * The email outbox (DESIGN.md §6). An email is a row written in the same
 * transaction as the change that causes it. A worker claims a few due rows
 * with a lease (so two processes never send the same row), and before each
 * send renews that row's lease, checking the row is still its own: a row
 * another worker took over meanwhile is skipped. It sends, and marks the row
 * sent, or retries with exponential backoff until MAX_ATTEMPTS, when the row
 * is dead. A permanent refusal (a 5xx answer about the message) makes the row
 * dead at once. A crash mid-send leaves a lease that expires and is retried.
 */

/** 30 s, 1 min, 2 min … then hourly: the last try comes about seven hours after the first, and the row is dead. */
export const MAX_ATTEMPTS = 14;
/**
 * How long a claim holds. Twice the SMTP socket timeout, and renewed before
 * each send and every third of a lease while the send is in flight, so a
 * send never outlives the lease on its row.
 */
const LEASE_MS = 2 * SMTP_TIMEOUTS.socketMs;
/** Rows claimed at a time: few, so a claimed row's turn comes soon. */
const CLAIM_LIMIT = 5;
const BASE_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** Which order flag an email sets once it is handed to the transport. */
const orderFlagByKind: Record<string, "chefNotified" | "preparingSent" | "shippedSent" | "deliveredSent"> = {
  "order-fulfilment": "chefNotified",
  "order-preparing": "preparingSent",
  "order-shipped": "shippedSent",
  "order-delivered": "deliveredSent",
};

export async function enqueueEmails(tx: Prisma.TransactionClient, emails: EmailContent[]) {
  for (const email of emails) {
    if (/[\r\n]/.test(email.to) || /[\r\n]/.test(email.subject)) {
      throw new Error("Refusing an email whose header contains a line break");
    }
  }
  await tx.outboxMessage.createMany({
    data: emails.map((email) => ({
      kind: email.kind,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      orderId: email.orderId ?? null,
      unsubscribeUrl: email.unsubscribeUrl ?? null,
    })),
  });
}

export function backoffMs(attempts: number) {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

const dueWhere = (now: Date) => ({
  OR: [
    { status: "pending", nextAttemptAt: { lte: now } },
    // A sender that died mid-send: its lease has run out.
    { status: "sending", claimedUntil: { lt: now } },
  ],
});

/**
 * Claims up to `limit` due rows for this worker. Rows another worker claimed
 * first are skipped and further candidates tried, so two workers share the
 * work instead of racing for the same rows. Taking over an expired lease
 * counts as an attempt, so a message that crashes its sender cannot loop forever.
 */
async function claimDue(workerId: string, now: Date, limit: number, leaseMs: number) {
  const candidates = await db.outboxMessage.findMany({
    where: dueWhere(now),
    orderBy: { nextAttemptAt: "asc" },
    take: limit * 4,
    select: { id: true, status: true, attempts: true },
  });
  const lease = { claimedBy: workerId, claimedUntil: new Date(now.getTime() + leaseMs) };
  const claimed: string[] = [];
  for (const candidate of candidates) {
    if (claimed.length >= limit) break;
    const abandoned = candidate.status === "sending";
    const { count } = await db.outboxMessage.updateMany({
      where: { id: candidate.id, ...dueWhere(now) },
      data: abandoned
        ? candidate.attempts + 1 >= MAX_ATTEMPTS
          ? { status: "dead", attempts: { increment: 1 }, claimedBy: null, claimedUntil: null, lastError: "Sender stopped mid-send" }
          : { status: "sending", attempts: { increment: 1 }, ...lease }
        : { status: "sending", ...lease },
    });
    if (count === 1 && !(abandoned && candidate.attempts + 1 >= MAX_ATTEMPTS)) claimed.push(candidate.id);
  }
  return claimed;
}

export type OutboxRun = { sent: number; failed: number };

/**
 * Extends this worker's lease on a row it is sending, if the row is still its
 * own; false when another worker has taken it over (or it is no longer being sent).
 */
async function renewLease(id: string, workerId: string, until: Date) {
  const { count } = await db.outboxMessage.updateMany({
    where: { id, claimedBy: workerId, status: "sending" },
    data: { claimedUntil: until },
  });
  return count === 1;
}

/** Runs `send` while renewing the row's lease every third of a lease, so a slow send keeps its row. */
async function whileHoldingLease<T>(id: string, renew: () => Promise<boolean>, leaseMs: number, send: () => Promise<T>) {
  let renewal = Promise.resolve();
  const timer = setInterval(() => {
    renewal = renewal
      .then(renew)
      .then((held) => {
        if (!held) console.error(`Email ${id} lost its lease while being sent`);
      })
      .catch((error: unknown) => console.error(`Could not renew the lease of email ${id}`, error));
  }, Math.max(1, Math.floor(leaseMs / 3)));
  timer.unref();
  try {
    return await send();
  } finally {
    clearInterval(timer);
    await renewal;
  }
}

/**
 * One pass of the worker: claim, send, record. Safe to run in several processes at once.
 * `now` is the pass's start (tests move it); the lease is `leaseMs` from the moment it is renewed.
 */
export async function processOutbox({
  mailer,
  workerId,
  now = new Date(),
  limit = CLAIM_LIMIT,
  leaseMs = LEASE_MS,
  stopping = () => false,
}: {
  mailer: Mailer;
  workerId: string;
  now?: Date;
  limit?: number;
  leaseMs?: number;
  /** True once the process is shutting down: the pass sends nothing more and gives its other claimed rows back. */
  stopping?: () => boolean;
}): Promise<OutboxRun> {
  const run = { sent: 0, failed: 0 };
  const startedAt = Date.now();
  // The pass's clock: `now`, moved on by the time the pass has taken so far.
  const leaseEnd = () => new Date(now.getTime() + (Date.now() - startedAt) + leaseMs);
  const claimed = await claimDue(workerId, now, limit, leaseMs);
  for (const [index, id] of claimed.entries()) {
    if (stopping()) {
      await releaseClaims(claimed.slice(index), workerId);
      break;
    }
    // The claim may be old by now: renew it, and leave the row alone if another worker has it.
    if (!(await renewLease(id, workerId, leaseEnd()))) continue;
    const message = await db.outboxMessage.findUniqueOrThrow({ where: { id } });
    const mine = { id, claimedBy: workerId, status: "sending" };
    try {
      await whileHoldingLease(id, () => renewLease(id, workerId, leaseEnd()), leaseMs, () => mailer.send(message));
    } catch (error) {
      run.failed++;
      const attempts = message.attempts + 1;
      const permanent = isPermanentFailure(error);
      const dead = permanent || attempts >= MAX_ATTEMPTS;
      await db.outboxMessage.updateMany({
        where: mine,
        data: {
          status: dead ? "dead" : "pending",
          attempts,
          nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)),
          claimedBy: null,
          claimedUntil: null,
          lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        },
      });
      console.error(
        `Email ${id} (${message.kind}) failed, attempt ${attempts}${permanent ? ": refused permanently, giving up" : dead ? ": giving up" : ""}`,
      );
      continue;
    }
    run.sent++;
    const flag = orderFlagByKind[message.kind];
    await db.$transaction([
      db.outboxMessage.updateMany({
        where: mine,
        data: { status: "sent", sentAt: new Date(), attempts: message.attempts + 1, claimedBy: null, claimedUntil: null, lastError: null },
      }),
      ...(flag && message.orderId ? [db.order.update({ where: { id: message.orderId }, data: { [flag]: true } })] : []),
    ]);
  }
  return run;
}

/** Rows this worker claimed but will not send (it is stopping): due again at once, for any instance. */
async function releaseClaims(ids: string[], workerId: string) {
  await db.outboxMessage.updateMany({
    where: { id: { in: ids }, claimedBy: workerId, status: "sending" },
    data: { status: "pending", claimedBy: null, claimedUntil: null },
  });
}

type OutboxWorker = { timer: NodeJS.Timeout; mailer: Mailer; pass: Promise<void> | null; stopping: boolean };

const globalForOutbox = globalThis as typeof globalThis & { __outboxWorker?: OutboxWorker };

/** Starts this process's worker (once). */
export function startOutboxWorker() {
  if (env.OUTBOX_POLL_MS === 0 || env.NODE_ENV === "test" || globalForOutbox.__outboxWorker) return;
  const mailer = createMailer();
  const workerId = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const worker: OutboxWorker = {
    mailer,
    pass: null,
    stopping: false,
    timer: setInterval(() => {
      if (worker.pass || worker.stopping) return;
      worker.pass = processOutbox({ mailer, workerId, stopping: () => worker.stopping })
        .then(
          () => undefined,
          (error: unknown) => console.error("Outbox worker pass failed", error),
        )
        .finally(() => {
          worker.pass = null;
        });
    }, env.OUTBOX_POLL_MS),
  };
  worker.timer.unref();
  globalForOutbox.__outboxWorker = worker;
}

/**
 * Stops this process's worker before the process exits (server.mjs, on
 * SIGTERM): no pass starts any more, and a pass under way finishes the send
 * in flight, records it, and gives its other claimed rows back. Answers true
 * once that is done, or false after `timeoutMs` with the send still in flight
 * (its row stays `sending` until its lease runs out; then another instance
 * sends it, possibly a second time if this one's had reached the mail server).
 */
export async function stopOutboxWorker(timeoutMs: number): Promise<boolean> {
  const worker = globalForOutbox.__outboxWorker;
  if (!worker) return true;
  worker.stopping = true;
  clearInterval(worker.timer);
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    (worker.pass ?? Promise.resolve()).then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (finished) worker.mailer.close?.();
  return finished;
}
