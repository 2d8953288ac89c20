-- Periodic work shared by every instance (app/services/jobs.server.ts): one
-- row per job. An instance runs a job when it is due and nobody holds its
-- lease; the row says when it last ran, how it ended, and who holds it now.
CREATE TABLE "BackgroundJob" (
    "name" TEXT NOT NULL,
    "leasedBy" TEXT,
    "leasedUntil" TIMESTAMP(3),
    "lastStartedAt" TIMESTAMP(3),
    "lastFinishedAt" TIMESTAMP(3),
    "lastResult" TEXT,
    "lastError" TEXT,
    "failures" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "BackgroundJob_pkey" PRIMARY KEY ("name")
);

-- CreateIndex (hand-written: a partial index Prisma cannot express) the orphan
-- sweep looks for unpaid orders by age.
CREATE INDEX "Order_unpaid_created_idx" ON "Order"("createdAt") WHERE "paymentStatus" = 'unpaid';
