-- The demo's Stripe stand-in (mocks/stripe.ts) keeps its Checkout Sessions here
-- instead of in one process's memory, so every server instance sees them.
-- CreateTable
CREATE TABLE "MockCheckoutSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

