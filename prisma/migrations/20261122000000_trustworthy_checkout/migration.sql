-- Orders and sign-ups keep the address as typed plus its canonical mailbox
-- (earlier rows: lower-cased, as they were stored); discount codes count the
-- orders that hold them; an order can claim a first-order code.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DiscountCode" (
    "code" TEXT NOT NULL PRIMARY KEY,
    "basisPoints" INTEGER NOT NULL,
    "description" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "firstOrderOnly" BOOLEAN NOT NULL DEFAULT false,
    "usageLimit" INTEGER,
    "usesHeld" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
-- usesHeld counts the orders holding a code: the paid ones and the unpaid ones still open.
INSERT INTO "new_DiscountCode" ("active", "basisPoints", "code", "createdAt", "description", "firstOrderOnly", "updatedAt", "usageLimit", "usesHeld") SELECT "active", "basisPoints", "code", "createdAt", "description", "firstOrderOnly", "updatedAt", "usageLimit", (SELECT count(*) FROM "Order" o WHERE o."discountCode" = "DiscountCode"."code" AND o."paymentStatus" IN ('unpaid', 'paid')) FROM "DiscountCode";
DROP TABLE "DiscountCode";
ALTER TABLE "new_DiscountCode" RENAME TO "DiscountCode";
CREATE TABLE "new_Order" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "paymentStatus" TEXT NOT NULL DEFAULT 'unpaid',
    "email" TEXT NOT NULL,
    "mailbox" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "phone" TEXT,
    "address" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "zipCode" TEXT NOT NULL,
    "subtotalCents" INTEGER NOT NULL,
    "discountCents" INTEGER NOT NULL,
    "shippingCents" INTEGER NOT NULL,
    "totalCents" INTEGER NOT NULL,
    "discountCode" TEXT,
    "firstOrderClaim" TEXT,
    "deliveryZone" TEXT NOT NULL,
    "distanceTenths" INTEGER NOT NULL,
    "stripeSessionId" TEXT,
    "stripeSessionUrl" TEXT,
    "paidAt" DATETIME,
    "chefNotified" BOOLEAN NOT NULL DEFAULT false,
    "preparingSent" BOOLEAN NOT NULL DEFAULT false,
    "shippedSent" BOOLEAN NOT NULL DEFAULT false,
    "deliveredSent" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Order" ("address", "chefNotified", "city", "createdAt", "deliveredSent", "deliveryZone", "discountCents", "discountCode", "distanceTenths", "email", "mailbox", "firstName", "id", "lastName", "paidAt", "paymentStatus", "phone", "preparingSent", "shippedSent", "shippingCents", "state", "status", "stripeSessionId", "subtotalCents", "totalCents", "updatedAt", "zipCode") SELECT "address", "chefNotified", "city", "createdAt", "deliveredSent", "deliveryZone", "discountCents", "discountCode", "distanceTenths", "email", lower(trim("email")), "firstName", "id", "lastName", "paidAt", "paymentStatus", "phone", "preparingSent", "shippedSent", "shippingCents", "state", "status", "stripeSessionId", "subtotalCents", "totalCents", "updatedAt", "zipCode" FROM "Order";
DROP TABLE "Order";
ALTER TABLE "new_Order" RENAME TO "Order";
CREATE UNIQUE INDEX "Order_firstOrderClaim_key" ON "Order"("firstOrderClaim");
CREATE UNIQUE INDEX "Order_stripeSessionId_key" ON "Order"("stripeSessionId");
CREATE INDEX "Order_mailbox_paymentStatus_idx" ON "Order"("mailbox", "paymentStatus");
CREATE INDEX "Order_paymentStatus_createdAt_idx" ON "Order"("paymentStatus", "createdAt");
CREATE TABLE "new_Subscriber" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "mailbox" TEXT NOT NULL,
    "unsubscribeToken" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unsubscribedAt" DATETIME
);
INSERT INTO "new_Subscriber" ("createdAt", "email", "mailbox", "id", "unsubscribeToken", "unsubscribedAt") SELECT "createdAt", "email", lower(trim("email")), "id", "unsubscribeToken", "unsubscribedAt" FROM "Subscriber";
DROP TABLE "Subscriber";
ALTER TABLE "new_Subscriber" RENAME TO "Subscriber";
CREATE UNIQUE INDEX "Subscriber_mailbox_key" ON "Subscriber"("mailbox");
CREATE UNIQUE INDEX "Subscriber_unsubscribeToken_key" ON "Subscriber"("unsubscribeToken");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

