-- AlterTable
ALTER TABLE "DiscountCode" ADD COLUMN "expiresAt" DATETIME;

