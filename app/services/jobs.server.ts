import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { at, db, instant, sqlDb } from "~/utils/db.server";
import { reportBackgroundFailure } from "~/services/error-reports.server";
import { metrics } from "~/utils/metrics.server";
import { describeError } from "~/utils/errors.server";
import { env } from "~/utils/env.server";
import { finishesWithin } from "~/utils/within.server";

/**
 * Periodic work shared by every instance (decision 044), the jobs listed in
 * app/services/background-work.server.ts. Each job has a row in BackgroundJob. Every instance
 * looks every JOBS_TICK_MS; the first to find a job due (its last start at
 * least `everyMs` ago) and unheld takes its lease in one conditional UPDATE
 * and runs it; the others see it held or not due. So a job runs once per
 * period across the whole shop, and a run whose instance died is taken over
 * when its lease ends.
 */
export type Job = {
  name: string;
  /** The period: a run starts at most this often, across all instances. */
  everyMs: number;
  /** Longer than a run can take; another instance takes the job over after it. */
  leaseMs: number;
  /** Does the work; says what it did in a few words (kept as the row's lastResult). */
  run: () => Promise<string>;
};

export type JobOutcome = "ran" | "failed" | "not-due";

/** Makes the job's row once, so the claim below has something to update. */
async function ensureRow(name: string) {
  await sqlDb()
    .insertInto("BackgroundJob")
    .values({ name })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
}

/** Takes the job's lease if it is due and unheld, in one statement: two instances never both get it. */
async function claim(job: Job, workerId: string, now: Date): Promise<boolean> {
  const leaseEnd = new Date(now.getTime() + job.leaseMs);
  const dueBefore = new Date(now.getTime() - job.everyMs);
  const claimed = await sqlDb()
    .updateTable("BackgroundJob")
    .set({ leasedBy: workerId, leasedUntil: at(leaseEnd), lastStartedAt: at(now) })
    .where("name", "=", job.name)
    .where((eb) => eb.or([eb("leasedUntil", "is", null), eb("leasedUntil", "<", instant(now))]))
    .where((eb) => eb.or([eb("lastStartedAt", "is", null), eb("lastStartedAt", "<=", instant(dueBefore))]))
    .executeTakeFirst();
  return claimed.numUpdatedRows === 1n;
}

/** Runs the job here if it is due and no other instance holds it; records how it ended. */
export async function runJobIfDue(job: Job, workerId: string, now = new Date()): Promise<JobOutcome> {
  await ensureRow(job.name);
  if (!(await claim(job, workerId, now))) return "not-due";
  const mine = { name: job.name, leasedBy: workerId };
  try {
    const result = await job.run();
    const finished = new Date();
    await db.backgroundJob.updateMany({
      where: mine,
      data: { leasedBy: null, leasedUntil: null, lastFinishedAt: finished, lastSucceededAt: finished, lastResult: result, lastError: null, failures: 0 },
    });
    return "ran";
  } catch (error) {
    const problem = describeError(error);
    metrics().jobFailures.inc({ job_name: job.name });
    reportBackgroundFailure(error, `Background job ${job.name}`, { source: "job", job: job.name });
    await db.backgroundJob.updateMany({
      where: mine,
      data: { leasedBy: null, leasedUntil: null, lastFinishedAt: new Date(), lastError: problem, failures: { increment: 1 } },
    });
    return "failed";
  }
}

type Runner = { timer: NodeJS.Timeout; tick: Promise<void> | null; stopping: boolean };
const globalForJobs = globalThis as unknown as { __jobRunner?: Runner };

/** Looks for due jobs every JOBS_TICK_MS in this instance, one tick at a time. */
export function startJobs(jobs: Job[]) {
  // Each job's period, for the alert on a job with no success in three of them (docs/monitoring/alerts.yml).
  for (const job of jobs) metrics().jobPeriod.set({ job_name: job.name }, job.everyMs / 1000);
  if (env.JOBS_TICK_MS === 0 || env.NODE_ENV === "test" || globalForJobs.__jobRunner) return;
  const workerId = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const runner: Runner = {
    tick: null,
    stopping: false,
    timer: setInterval(() => {
      if (runner.tick || runner.stopping) return;
      runner.tick = (async () => {
        for (const job of jobs) {
          if (runner.stopping) return;
          await runJobIfDue(job, workerId).catch((error: unknown) =>
            reportBackgroundFailure(error, `Claiming background job ${job.name}`, { source: "job", job: job.name }),
          );
        }
      })().finally(() => {
        runner.tick = null;
      });
    }, env.JOBS_TICK_MS),
  };
  runner.timer.unref();
  globalForJobs.__jobRunner = runner;
}

/** Stops looking for jobs and waits up to `timeoutMs` for a run under way (a graceful stop). */
export async function stopJobs(timeoutMs: number): Promise<boolean> {
  const runner = globalForJobs.__jobRunner;
  if (!runner) return true;
  runner.stopping = true;
  clearInterval(runner.timer);
  return finishesWithin(runner.tick, timeoutMs);
}

/** Every job's row, for the operations page and the tests. */
export function jobStates() {
  return db.backgroundJob.findMany({ orderBy: { name: "asc" } });
}
