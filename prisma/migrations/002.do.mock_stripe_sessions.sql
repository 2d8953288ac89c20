-- CreateTable
CREATE TABLE "MockCheckoutSession" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "paymentStatus" TEXT NOT NULL,
    "customerEmail" TEXT,
    "clientReferenceId" TEXT,
    "metadata" TEXT NOT NULL,
    "amountSubtotal" INTEGER NOT NULL,
    "amountDiscount" INTEGER NOT NULL,
    "amountShipping" INTEGER NOT NULL,
    "amountTotal" INTEGER NOT NULL,
    "lineItems" TEXT NOT NULL,
    "successUrl" TEXT NOT NULL,
    "cancelUrl" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MockCheckoutSession_pkey" PRIMARY KEY ("id")
);

