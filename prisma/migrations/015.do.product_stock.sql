-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "lowStockNotified" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "lowStockThreshold" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "stock" INTEGER;

-- AlterTable
ALTER TABLE "OrderItem" ADD COLUMN     "heldQuantity" INTEGER NOT NULL DEFAULT 0;

