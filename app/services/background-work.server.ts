import { startJobs, stopJobs, type Job } from "~/services/jobs.server";
import { startOutboxWorker, stopOutboxWorker } from "~/services/outbox.server";
import { describeRetention, sweepRetention } from "~/models/customer-data.server";
import { describeReconciliation, describeSweep, reconcilePayments, sweepOrphanOrders } from "~/models/orphan-orders.server";
import { settlePendingRefunds } from "~/models/refunds.server";
import { runCampaigns } from "~/models/campaigns.server";
import { sweepExpiredRateLimits } from "~/utils/rate-limit.server";
import { env } from "~/utils/env.server";

/**
 * The shop's background work: the email worker (app/services/outbox.server.ts)
 * and the periodic jobs below, each run by one instance at a time
 * (app/services/jobs.server.ts, decision 044). A new job is one row here.
 */
export const JOBS: Job[] = [
  { name: "reconcile-payments", everyMs: 2 * 60_000, leaseMs: 10 * 60_000, run: async () => describeReconciliation(await reconcilePayments()) },
  { name: "orphan-orders", everyMs: 5 * 60_000, leaseMs: 10 * 60_000, run: async () => describeSweep(await sweepOrphanOrders()) },
  // The owner's scheduled campaigns started when their time comes, and the finished ones recorded as sent (decision 101).
  { name: "campaigns", everyMs: 30_000, leaseMs: 10 * 60_000, run: () => runCampaigns() },
  { name: "rate-limit-sweep", everyMs: 60_000, leaseMs: 60_000, run: async () => `${await sweepExpiredRateLimits()} expired windows deleted` },
  // Customers' personal data kept no longer than it is needed (decision 062).
  { name: "retention", everyMs: 24 * 60 * 60_000, leaseMs: 30 * 60_000, run: async () => describeRetention(await sweepRetention()) },
  // Refunds whose answer from Stripe never came, asked again with the same idempotency key (decision 042); REFUND_CHECK_MS=0 leaves them.
  ...(env.REFUND_CHECK_MS > 0
    ? [
        {
          name: "pending-refunds",
          everyMs: env.REFUND_CHECK_MS,
          leaseMs: 10 * 60_000,
          run: async () => `${await settlePendingRefunds()} pending refunds settled`,
        },
      ]
    : []),
];

/** Starts this process's share of the work: server.mjs calls it once the database is migrated, never on import. */
export function startBackgroundWork() {
  startOutboxWorker();
  startJobs(JOBS);
}

/** For the HTTP server's shutdown (server.mjs): stops the email worker and the jobs once the work in flight is done. */
export async function stopBackgroundWork(timeoutMs: number): Promise<boolean> {
  const [outbox, jobs] = await Promise.all([stopOutboxWorker(timeoutMs), stopJobs(timeoutMs)]);
  return outbox && jobs;
}
