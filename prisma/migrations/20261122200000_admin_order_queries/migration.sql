-- The operator's order list and dashboard (docs/decisions/018): an indexed
-- email domain, indexes for each filter and sort, and paid orders per Los
-- Angeles day. Prisma's SQL, except for the two hand-written parts marked below.
-- CreateTable
CREATE TABLE "DailySales" (
    "day" TEXT NOT NULL PRIMARY KEY,
    "orders" INTEGER NOT NULL,
    "revenueCents" INTEGER NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Order" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "paymentStatus" TEXT NOT NULL DEFAULT 'unpaid',
    "email" TEXT NOT NULL,
    "mailbox" TEXT NOT NULL,
    "emailDomain" TEXT NOT NULL,
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
INSERT INTO "new_Order" ("address", "chefNotified", "city", "createdAt", "deliveredSent", "deliveryZone", "discountCents", "discountCode", "distanceTenths", "email", "emailDomain", "firstName", "firstOrderClaim", "id", "lastName", "mailbox", "paidAt", "paymentStatus", "phone", "preparingSent", "shippedSent", "shippingCents", "state", "status", "stripeSessionId", "stripeSessionUrl", "subtotalCents", "totalCents", "updatedAt", "zipCode") SELECT "address", "chefNotified", "city", "createdAt", "deliveredSent", "deliveryZone", "discountCents", "discountCode", "distanceTenths", "email", substr("mailbox", instr("mailbox", '@') + 1), "firstName", "firstOrderClaim", "id", "lastName", "mailbox", "paidAt", "paymentStatus", "phone", "preparingSent", "shippedSent", "shippingCents", "state", "status", "stripeSessionId", "stripeSessionUrl", "subtotalCents", "totalCents", "updatedAt", "zipCode" FROM "Order";
DROP TABLE "Order";
ALTER TABLE "new_Order" RENAME TO "Order";
CREATE UNIQUE INDEX "Order_firstOrderClaim_key" ON "Order"("firstOrderClaim");
CREATE UNIQUE INDEX "Order_stripeSessionId_key" ON "Order"("stripeSessionId");
CREATE INDEX "Order_mailbox_paymentStatus_idx" ON "Order"("mailbox", "paymentStatus");
CREATE INDEX "Order_paymentStatus_createdAt_idx" ON "Order"("paymentStatus", "createdAt");
CREATE INDEX "Order_paymentStatus_totalCents_createdAt_idx" ON "Order"("paymentStatus", "totalCents", "createdAt");
CREATE INDEX "Order_paymentStatus_status_createdAt_idx" ON "Order"("paymentStatus", "status", "createdAt");
CREATE INDEX "Order_emailDomain_paymentStatus_createdAt_idx" ON "Order"("emailDomain", "paymentStatus", "createdAt");
CREATE INDEX "Order_emailDomain_paymentStatus_totalCents_createdAt_idx" ON "Order"("emailDomain", "paymentStatus", "totalCents", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Hand-written: the existing orders' email domain (above, in the INSERT: the
-- mailbox after its one "@") and their paid orders per Los Angeles day.
-- SQLite has no time zones, so the day is the UTC time moved by Los Angeles'
-- offset: 7 hours from the second Sunday of March, 10:00 UTC, to the first
-- Sunday of November, 09:00 UTC (the US rule since 2007), 8 hours otherwise.
-- tests/integration/admin-dashboard.test.ts checks it against Intl.
INSERT INTO "DailySales" ("day", "orders", "revenueCents")
SELECT "day", COUNT(*), SUM("totalCents") FROM (
    SELECT date("createdAt", CASE
        WHEN datetime("createdAt") >= datetime(strftime('%Y', "createdAt") || '-03-01', 'weekday 0', '+7 days', '+10 hours')
         AND datetime("createdAt") < datetime(strftime('%Y', "createdAt") || '-11-01', 'weekday 0', '+9 hours')
        THEN '-7 hours' ELSE '-8 hours' END) AS "day", "totalCents"
    FROM "Order" WHERE "paymentStatus" = 'paid'
) GROUP BY "day";
