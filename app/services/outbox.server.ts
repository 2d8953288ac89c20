import { hostname } from "node:os";
import { randomBytes, randomUUID } from "node:crypto";
import type { QueryCreator } from "kysely";
import type { DB } from "~/generated/kysely/database";
import { at, db, instant, shouldRetryLater, sqlDb, type Sql } from "~/utils/db.server";
import { reportBackgroundFailure } from "~/services/error-reports.server";
import type { EmailContent } from "~/services/emails.server";
import { env } from "~/utils/env.server";
import { metrics } from "~/utils/metrics.server";
import { createMailer, isPermanentFailure, SMTP_TIMEOUTS, type Mailer } from "~/services/mailer.server";
import { describeError } from "~/utils/errors.server";
import { finishesWithin } from "~/utils/within.server";
import { campaignCopy } from "~/services/campaign-copy.server";

/**
 * The email outbox (architecture §6). An email is a row written in the same
 * transaction as the change that causes it. A worker claims a batch of due
 * rows with a lease in one statement (FOR UPDATE SKIP LOCKED: two processes
 * never claim the same row, nor wait for each other), sends them a few at a
 * time (OUTBOX_CONCURRENCY), and before each send renews that row's lease,
 * checking the row is still its own: a row another worker took over meanwhile
 * is skipped. It marks each row sent, or retries it with exponential backoff
 * until MAX_ATTEMPTS, when the row is dead. A permanent refusal (a 5xx answer
 * about the message) makes the row dead at once. A crash mid-send leaves a
 * lease that expires and is retried. While batches come back full, the worker
 * claims the next at once, so a burst drains at the mail server's speed
 * (decision 038).
 */

/** 30 s, 1 min, 2 min … then hourly: the last try comes about seven hours after the first, and the row is dead. */
export const MAX_ATTEMPTS = 14;
/**
 * How long a claim holds. Twice the SMTP socket timeout, and renewed before
 * each send and every third of a lease while the send is in flight, so a
 * send never outlives the lease on its row.
 */
const LEASE_MS = 2 * SMTP_TIMEOUTS.socketMs;
/** Rows claimed at a time for each send in flight: a claimed row's turn still comes within a few sends. */
const BATCH_PER_SEND = 5;
const BASE_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** Which order flag an email sets once it is handed to the transport. */
const orderFlagByKind: Record<string, "chefNotified" | "preparingSent" | "shippedSent" | "deliveredSent"> = {
  "order-fulfilment": "chefNotified",
  "order-preparing": "preparingSent",
  "order-shipped": "shippedSent",
  "order-delivered": "deliveredSent",
};

/** An email whose To or Subject holds a line break would smuggle headers in: refused before it is stored. */
function refuseHeaderBreaks(emails: EmailContent[]) {
  for (const email of emails) {
    if (/[\r\n]/.test(email.to) || /[\r\n]/.test(email.subject)) {
      throw new Error("Refusing an email whose header contains a line break");
    }
  }
}

/**
 * Queues emails in the transaction of the change that causes them, one
 * statement: the order path's (transaction()) or a Prisma transaction's
 * (`sqlIn(tx)`), the one way an email is queued.
 */
export async function enqueueEmails(sql: Sql, emails: EmailContent[]) {
  refuseHeaderBreaks(emails);
  if (emails.length === 0) return;
  // As an ISO string: node-pg would write a Date in the process's time zone, which a `timestamp(3)` column drops (sql.server.ts).
  const now = at(new Date());
  await sql.db
    .insertInto("OutboxMessage")
    .values(
      emails.map((email) => ({
        id: randomUUID(),
        kind: email.kind,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        orderId: email.orderId ?? null,
        unsubscribeUrl: email.unsubscribeUrl ?? null,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .execute();
}

export function backoffMs(attempts: number) {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

/** A row this worker claimed to send: what claimDue returns. */
type ClaimedRow = Awaited<ReturnType<typeof claimDue>>[number];

/**
 * Claims up to `limit` due rows for this worker in one statement: pending rows
 * whose time has come, and rows whose sender died mid-send (its lease ran out).
 * Rows another worker holds locked are skipped, not waited for. Taking over
 * an expired lease counts as an attempt, so a message that crashes its sender
 * cannot loop forever: at MAX_ATTEMPTS it is dead instead.
 */
async function claimDue(workerId: string, now: Date, limit: number, leaseMs: number) {
  const leaseEnd = new Date(now.getTime() + leaseMs);
  // On the pool (decision 068), as is each send's bookkeeping: every order's two emails pass here.
  const rows = await sqlDb()
    .with("due", (db) =>
      db
        .selectFrom("OutboxMessage")
        .select("id")
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "pending"), eb("nextAttemptAt", "<=", instant(now))]),
            eb.and([eb("status", "=", "sending"), eb("claimedUntil", "<", instant(now))]),
          ]),
        )
        // The shop's own emails (priority 0) before a campaign's (1): a confirmation never waits behind a list.
        .orderBy("priority")
        .orderBy("nextAttemptAt")
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .with("claimed", (db) =>
      db
        .selectFrom("OutboxMessage as m")
        .innerJoin("due", "due.id", "m.id")
        .select((eb) => ["m.id", eb.and([eb("m.status", "=", "sending"), eb(eb("m.attempts", "+", 1), ">=", MAX_ATTEMPTS)]).as("dies")]),
    )
    .updateTable("OutboxMessage as m")
    .from("claimed")
    .whereRef("claimed.id", "=", "m.id")
    .set((eb) => {
      const dies = eb("claimed.dies", "=", true);
      return {
        attempts: eb
          .case()
          .when("m.status", "=", "sending")
          .then(eb("m.attempts", "+", 1))
          .else(eb.ref("m.attempts"))
          .end(),
        status: eb.case().when(dies).then("dead").else("sending").end(),
        claimedBy: eb.case().when(dies).then(null).else(workerId).end(),
        claimedUntil: eb.case().when(dies).then(null).else(instant(leaseEnd)).end(),
        lastError: eb.case().when(dies).then("Sender stopped mid-send").else(eb.ref("m.lastError")).end(),
      };
    })
    .returning(["m.id", "m.kind", "m.to", "m.subject", "m.text", "m.html", "m.unsubscribeUrl", "m.orderId", "m.campaignId", "m.attempts", "m.status"])
    .execute();
  // A row whose sender stopped mid-send too often died in the claim itself.
  const died = rows.filter((row) => row.status === "dead").length;
  if (died > 0) metrics().emailsDead.inc(died);
  return rows.filter((row) => row.status === "sending");
}

export type OutboxRun = { sent: number; failed: number };

type WorkerOptions = {
  mailer: Mailer;
  workerId: string;
  /** The pass's start (tests move it); the lease is `leaseMs` from the moment it is renewed. */
  now?: Date;
  /** Rows claimed at a time (BATCH_PER_SEND for each send in flight by default). */
  limit?: number;
  leaseMs?: number;
  /** Sends in flight at once (OUTBOX_CONCURRENCY). */
  concurrency?: number;
  /** True once the process is shutting down: the pass sends nothing more and gives its other claimed rows back. */
  stopping?: () => boolean;
};

/**
 * Extends this worker's lease on a row it is sending, if the row is still its
 * own; false when another worker has taken it over (or it is no longer being sent).
 */
async function renewLease(id: string, workerId: string, until: Date) {
  const renewed = await sqlDb()
    .updateTable("OutboxMessage")
    .set({ claimedUntil: at(until) })
    .where("id", "=", id)
    .where("claimedBy", "=", workerId)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return renewed.numUpdatedRows === 1n;
}

/** Runs `send` while renewing the row's lease every third of a lease, so a slow send keeps its row. */
async function whileHoldingLease<T>(id: string, renew: () => Promise<boolean>, leaseMs: number, send: () => Promise<T>) {
  let renewal = Promise.resolve();
  const timer = setInterval(
    () => {
      renewal = renewal
        .then(renew)
        .then((held) => {
          if (!held) console.error(`Email ${id} lost its lease while being sent`);
        })
        .catch((error: unknown) => console.error(`Could not renew the lease of email ${id}: ${describeError(error)}`));
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  try {
    return await send();
  } finally {
    clearInterval(timer);
    await renewal;
  }
}

/**
 * One batch of the worker: claim, send (`concurrency` at a time), record.
 * Safe to run in several processes at once.
 */
export async function processOutbox(options: WorkerOptions): Promise<OutboxRun> {
  const { sent, failed } = await processBatch(options);
  return { sent, failed };
}

/**
 * Batch after batch while they come back full, then stops: what the worker
 * does each time it looks, so a burst of emails goes out at the mail
 * server's speed rather than one batch a poll.
 */
export async function drainOutbox(options: WorkerOptions): Promise<OutboxRun> {
  const total = { sent: 0, failed: 0 };
  for (;;) {
    const now = options.now ?? new Date();
    const batch = await processBatch({ ...options, now });
    total.sent += batch.sent;
    total.failed += batch.failed;
    if (batch.claimed < batch.limit || options.stopping?.()) return total;
  }
}

async function processBatch({
  mailer,
  workerId,
  now = new Date(),
  concurrency = env.OUTBOX_CONCURRENCY,
  limit = BATCH_PER_SEND * concurrency,
  leaseMs = LEASE_MS,
  stopping = () => false,
}: WorkerOptions): Promise<OutboxRun & { claimed: number; limit: number }> {
  const run = { sent: 0, failed: 0 };
  const startedAt = Date.now();
  // The pass's clock: `now`, moved on by the time the pass has taken so far.
  const leaseEnd = () => new Date(now.getTime() + (Date.now() - startedAt) + leaseMs);
  const claimed = await claimDue(workerId, now, limit, leaseMs);
  const queue = [...claimed];
  const lane = async () => {
    for (let message = queue.shift(); message; message = queue.shift()) {
      if (stopping()) {
        await releaseClaims([message.id, ...queue.splice(0).map((row) => row.id)], workerId);
        return;
      }
      const outcome = await sendOne(message, { mailer, workerId, now, leaseMs, leaseEnd });
      if (outcome === "sent") run.sent++;
      else if (outcome === "failed") run.failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, claimed.length)) }, lane));
  return { ...run, claimed: claimed.length, limit };
}

/** Sends one claimed row and records what happened; "lost" when another worker has taken the row over. */
async function sendOne(
  message: ClaimedRow,
  { mailer, workerId, now, leaseMs, leaseEnd }: { mailer: Mailer; workerId: string; now: Date; leaseMs: number; leaseEnd: () => Date },
): Promise<"sent" | "failed" | "lost"> {
  const { id } = message;
  // The claim may be old by now: renew it, and leave the row alone if another worker has it.
  if (!(await renewLease(id, workerId, leaseEnd()))) return "lost";
  const mine = { id, claimedBy: workerId, status: "sending" };
  try {
    // A campaign's copy is rendered now, from its campaign's fixed content (decision 101).
    const email = message.campaignId ? await campaignCopy({ ...message, campaignId: message.campaignId }) : message;
    if (!email) {
      await db.outboxMessage.updateMany({ where: mine, data: { status: "withdrawn", claimedBy: null, claimedUntil: null, lastError: "Its campaign is gone" } });
      return "lost";
    }
    // Withdrawn while it was rendered (an unsubscribe, a cancel): checked again just before it goes.
    if (message.campaignId && !(await renewLease(id, workerId, leaseEnd()))) return "lost";
    await whileHoldingLease(
      id,
      () => renewLease(id, workerId, leaseEnd()),
      leaseMs,
      () => mailer.send(email),
    );
  } catch (error) {
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
    metrics().emailsFailed.inc();
    if (dead) metrics().emailsDead.inc();
    console.error(`Email ${id} (${message.kind}) failed, attempt ${attempts}${permanent ? ": refused permanently, giving up" : dead ? ": giving up" : ""}`);
    return "failed";
  }
  metrics().emailsSent.inc();
  const flag = orderFlagByKind[message.kind];
  // The row and its order's flag in one statement (so one transaction); the flag's column comes from orderFlagByKind only.
  const sentAt = at(new Date());
  const recordSent = (db: QueryCreator<DB>) =>
    db
      .updateTable("OutboxMessage")
      .set({ status: "sent", sentAt, attempts: message.attempts + 1, claimedBy: null, claimedUntil: null, lastError: null })
      .where("id", "=", id)
      .where("claimedBy", "=", workerId)
      .where("status", "=", "sending");
  const orderId = message.orderId;
  const record = async () => {
    if (flag && orderId) {
      await sqlDb()
        .with("sent", recordSent)
        .updateTable("Order")
        .set({ [flag]: true, updatedAt: sentAt })
        .where("id", "=", orderId)
        .execute();
    } else {
      await recordSent(sqlDb()).execute();
    }
  };
  await untilRecorded(record, id, Date.now() + leaseMs * RECORD_WITHIN_LEASE);
  return "sent";
}

/**
 * How much of its lease a sent email's worker spends trying to write "sent"
 * while the database is away: until then no other worker can claim the row,
 * so no copy goes out; after it, the row's lease runs out and the email is
 * sent again (at least once: decision 080).
 */
const RECORD_WITHIN_LEASE = 0.8;

/**
 * Writes that an email the mail server accepted was sent, again and again
 * (every half second, then every two) while the database is busy or away, up
 * to `deadline`: a restart or failover just after the mail server's "250 OK"
 * would otherwise leave the row "sending", and the email would go out a
 * second time when its lease ran out. Any other failure, or the deadline, is
 * thrown as before.
 */
async function untilRecorded(record: () => Promise<unknown>, id: string, deadline: number) {
  for (let attempt = 0; ; attempt++) {
    try {
      await record();
      if (attempt > 0) console.info(`Email ${id} was recorded as sent after the database came back (${attempt} retries)`);
      return;
    } catch (error) {
      const pause = attempt < 4 ? 500 : 2_000;
      if (!shouldRetryLater(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
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
  const mailer = createMailer(env.SMTP_URL, {}, env.OUTBOX_CONCURRENCY);
  const workerId = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const worker: OutboxWorker = {
    mailer,
    pass: null,
    stopping: false,
    timer: setInterval(() => {
      if (worker.pass || worker.stopping) return;
      worker.pass = drainOutbox({ mailer, workerId, stopping: () => worker.stopping })
        .then(
          () => undefined,
          (error: unknown) => reportBackgroundFailure(error, "Outbox worker pass", { source: "outbox" }),
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
  const finished = await finishesWithin(worker.pass, timeoutMs);
  if (finished) worker.mailer.close?.();
  return finished;
}
