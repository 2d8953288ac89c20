import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { db } from "~/db.server";
import type { EmailContent } from "~/emails.server";
import { env } from "~/env.server";
import type { Prisma } from "~/generated/prisma/client";
import { createMailer, type Mailer } from "~/mailer.server";

/**
 * The email outbox (DESIGN.md §6). An email is a row written in the same
 * transaction as the change that causes it. A worker claims due rows with a
 * lease (so two processes never send the same row), sends them, and marks
 * them sent, or retries with exponential backoff until MAX_ATTEMPTS, when the
 * row is dead. A crash mid-send leaves a lease that expires and is retried.
 */

/** 30 s, 1 min, 2 min … then hourly: about eight hours of tries before a row is dead. */
export const MAX_ATTEMPTS = 14;
const LEASE_MS = 60_000;
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
async function claimDue(workerId: string, now: Date, limit: number) {
  const candidates = await db.outboxMessage.findMany({
    where: dueWhere(now),
    orderBy: { nextAttemptAt: "asc" },
    take: limit * 4,
    select: { id: true, status: true, attempts: true },
  });
  const lease = { claimedBy: workerId, claimedUntil: new Date(now.getTime() + LEASE_MS) };
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

/** One pass of the worker: claim, send, record. Safe to run in several processes at once. */
export async function processOutbox({
  mailer,
  workerId,
  now = new Date(),
  limit = 20,
}: {
  mailer: Mailer;
  workerId: string;
  now?: Date;
  limit?: number;
}): Promise<OutboxRun> {
  const run = { sent: 0, failed: 0 };
  for (const id of await claimDue(workerId, now, limit)) {
    const message = await db.outboxMessage.findUniqueOrThrow({ where: { id } });
    try {
      await mailer.send(message);
    } catch (error) {
      run.failed++;
      const attempts = message.attempts + 1;
      const dead = attempts >= MAX_ATTEMPTS;
      await db.outboxMessage.updateMany({
        where: { id, claimedBy: workerId },
        data: {
          status: dead ? "dead" : "pending",
          attempts,
          nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)),
          claimedBy: null,
          claimedUntil: null,
          lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        },
      });
      console.error(`Email ${id} (${message.kind}) failed, attempt ${attempts}${dead ? ": giving up" : ""}`);
      continue;
    }
    run.sent++;
    const flag = orderFlagByKind[message.kind];
    await db.$transaction([
      db.outboxMessage.updateMany({
        where: { id, claimedBy: workerId },
        data: { status: "sent", sentAt: new Date(), attempts: message.attempts + 1, claimedBy: null, claimedUntil: null, lastError: null },
      }),
      ...(flag && message.orderId ? [db.order.update({ where: { id: message.orderId }, data: { [flag]: true } })] : []),
    ]);
  }
  return run;
}

const globalForOutbox = globalThis as typeof globalThis & { __outboxWorker?: NodeJS.Timeout };

/** Starts this process's worker (once); it also sweeps expired rate-limit windows. */
export function startOutboxWorker() {
  if (env.OUTBOX_POLL_MS === 0 || env.NODE_ENV === "test" || globalForOutbox.__outboxWorker) return;
  const mailer = createMailer();
  const workerId = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
  let running = false;
  let ticks = 0;
  globalForOutbox.__outboxWorker = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await processOutbox({ mailer, workerId });
      if (++ticks % 60 === 0) await db.rateLimitWindow.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    } catch (error) {
      console.error("Outbox worker pass failed", error);
    } finally {
      running = false;
    }
  }, env.OUTBOX_POLL_MS);
  globalForOutbox.__outboxWorker.unref();
}
