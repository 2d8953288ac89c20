-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "refundRequestedAt" TIMESTAMP(3),
ADD COLUMN     "refundRequestedBy" TEXT;

-- Hand-written: the pending refunds the checker (settlePendingRefunds in
-- app/models/refunds.server.ts) reads every 30 seconds, oldest first. Partial,
-- so it holds only the few orders with a refund waiting on Stripe's answer
-- instead of one entry per order; Prisma's schema language cannot express the
-- WHERE (decision 029).
CREATE INDEX "Order_refund_requested_idx" ON "Order"("refundRequestedAt") WHERE "refundRequestedAt" IS NOT NULL;
