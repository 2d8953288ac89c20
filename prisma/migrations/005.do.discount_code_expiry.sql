-- AlterTable
ALTER TABLE "DiscountCode" ADD COLUMN     "expiresAt" TIMESTAMP(3);

