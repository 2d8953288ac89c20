-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "archivedAt" TIMESTAMP(3),
ADD COLUMN     "facts" JSONB;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "refundRequestKey" TEXT,
ADD COLUMN     "refundRequestLines" JSONB,
ADD COLUMN     "refundRequestRestock" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "refundRequestedCents" INTEGER;

-- CreateTable
CREATE TABLE "Refund" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "stripeRefundId" TEXT,
    "amountCents" INTEGER NOT NULL,
    "reason" TEXT,
    "refundedBy" TEXT NOT NULL,
    "lines" JSONB,
    "restocked" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProductImage" (
    "id" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "contentType" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProductImage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Refund_stripeRefundId_key" ON "Refund"("stripeRefundId");

-- CreateIndex
CREATE INDEX "Refund_orderId_createdAt_idx" ON "Refund"("orderId", "createdAt");

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: an order refunded before partial refunds existed keeps its
-- one refund as a Refund row, so every refund of every order is in one place.
INSERT INTO "Refund" ("id", "orderId", "stripeRefundId", "amountCents", "reason", "refundedBy", "createdAt")
SELECT gen_random_uuid()::text, "id", "stripeRefundId", coalesce("refundedCents", "totalCents"), "refundReason",
       coalesce("refundedBy", 'Stripe'), coalesce("refundedAt", "updatedAt")
  FROM "Order"
 WHERE "paymentStatus" = 'refunded';
