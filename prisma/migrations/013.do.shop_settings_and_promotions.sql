-- AlterTable
ALTER TABLE "DiscountCode" ADD COLUMN     "amountOffCents" INTEGER,
ADD COLUMN     "appliesTo" TEXT NOT NULL DEFAULT 'all',
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'percent',
ADD COLUMN     "minimumSubtotalCents" INTEGER,
ADD COLUMN     "startsAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "id" INTEGER NOT NULL,
    "shippingFeeCents" INTEGER NOT NULL,
    "freeShippingThresholdCents" INTEGER NOT NULL,
    "minimumOrderCents" INTEGER NOT NULL,
    "kitchenLat" DOUBLE PRECISION NOT NULL,
    "kitchenLon" DOUBLE PRECISION NOT NULL,
    "zones" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSettings_pkey" PRIMARY KEY ("id")
);

