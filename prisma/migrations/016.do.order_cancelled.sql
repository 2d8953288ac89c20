-- AlterEnum
ALTER TYPE "OrderStatus" ADD VALUE 'cancelled';

