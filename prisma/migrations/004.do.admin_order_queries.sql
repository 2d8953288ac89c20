-- The operator's order list and dashboard (docs/decisions/018): an indexed
-- email domain, indexes for each filter and sort, and paid orders per Los
-- Angeles day. Prisma's SQL, except for the hand-written parts marked below.

-- DropIndex
DROP INDEX "Order_paymentStatus_createdAt_idx";

-- AlterTable (hand-written: the existing orders' domain, the mailbox after its one "@", before NOT NULL)
ALTER TABLE "Order" ADD COLUMN     "emailDomain" TEXT;
UPDATE "Order" SET "emailDomain" = split_part("mailbox", '@', 2);
ALTER TABLE "Order" ALTER COLUMN "emailDomain" SET NOT NULL;

-- CreateTable
CREATE TABLE "DailySales" (
    "day" TEXT NOT NULL,
    "orders" INTEGER NOT NULL,
    "revenueCents" INTEGER NOT NULL,

    CONSTRAINT "DailySales_pkey" PRIMARY KEY ("day")
);

-- CreateIndex
CREATE INDEX "Order_paid_date_idx" ON "Order"("paymentStatus", "createdAt", "status", "id");

-- CreateIndex
CREATE INDEX "Order_paid_total_idx" ON "Order"("paymentStatus", "totalCents", "createdAt", "status", "id");

-- CreateIndex
CREATE INDEX "Order_status_date_idx" ON "Order"("paymentStatus", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_status_total_idx" ON "Order"("paymentStatus", "status", "totalCents", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_domain_date_idx" ON "Order"("emailDomain", "paymentStatus", "createdAt", "status", "id");

-- CreateIndex
CREATE INDEX "Order_domain_total_idx" ON "Order"("emailDomain", "paymentStatus", "totalCents", "createdAt", "status", "id");

-- CreateIndex
CREATE INDEX "Order_paid_id_idx" ON "Order"("paymentStatus", "id");

-- Hand-written: the order id prefix search (LIKE 'abc%'). A plain index serves
-- LIKE only under the C collation; text_pattern_ops does under any.
CREATE INDEX "Order_id_pattern_idx" ON "Order"("id" text_pattern_ops);

-- Hand-written: the existing orders' paid orders per Los Angeles day
-- ("createdAt" is a UTC timestamp without time zone).
INSERT INTO "DailySales" ("day", "orders", "revenueCents")
SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE 'America/Los_Angeles', 'YYYY-MM-DD') AS "day", COUNT(*), SUM("totalCents")
FROM "Order" WHERE "paymentStatus" = 'paid'
GROUP BY 1;
