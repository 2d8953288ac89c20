-- Campaigns (issue 40, decision 101): the owner's emails to the family list.
-- Made by `npm run db:migration -- campaigns`, then split by hand so that no
-- statement blocks the outbox's writes while it runs: the foreign keys are
-- added NOT VALID here (their columns are new, so every row is already valid)
-- and validated in 037; the outbox's new indexes are built, and its old one
-- dropped, CONCURRENTLY, each alone in its file (038-040).

-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "postalAddress" TEXT;

-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN     "campaignId" TEXT,
ADD COLUMN     "priority" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "subscriberId" TEXT;

-- AlterTable
ALTER TABLE "Subscriber" ADD COLUMN     "consentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "consentNote" TEXT,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'form';

-- CreateTable
CREATE TABLE "Campaign" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "preheader" TEXT,
    "body" TEXT NOT NULL,
    "productIds" TEXT[],
    "discountCode" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "sendAt" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "recipients" INTEGER NOT NULL DEFAULT 0,
    "content" JSONB,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Campaign_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Campaign_createdAt_idx" ON "Campaign"("createdAt");

-- AddForeignKey
ALTER TABLE "OutboxMessage" ADD CONSTRAINT "OutboxMessage_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE NOT VALID;

-- AddForeignKey
ALTER TABLE "OutboxMessage" ADD CONSTRAINT "OutboxMessage_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "Subscriber"("id") ON DELETE SET NULL ON UPDATE CASCADE NOT VALID;

-- Hand-written: a subscriber from before consent was recorded gave it when they signed up, on the landing page's form.
UPDATE "Subscriber" SET "consentAt" = "createdAt";
