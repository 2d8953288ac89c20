-- AlterTable
ALTER TABLE "BackgroundJob" ADD COLUMN     "lastSucceededAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;


-- Hand-written: a job whose last run ended well counts from that run, not
-- from this migration (decision 080). BackgroundJob holds one row per job.
UPDATE "BackgroundJob" SET "lastSucceededAt" = "lastFinishedAt" WHERE "lastError" IS NULL AND "lastFinishedAt" IS NOT NULL;
