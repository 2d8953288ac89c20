-- The operator's order list and dashboard (docs/decisions/018): an indexed
-- email domain, indexes for each filter and sort, and paid orders per Los
-- Angeles day. Prisma's SQL, except for the hand-written parts marked below.
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
CREATE INDEX "Order_paid_date_idx" ON "Order"("paymentStatus", "createdAt", "status", "id");
CREATE INDEX "Order_paid_total_idx" ON "Order"("paymentStatus", "totalCents", "createdAt", "status", "id");
CREATE INDEX "Order_status_date_idx" ON "Order"("paymentStatus", "status", "createdAt", "id");
CREATE INDEX "Order_status_total_idx" ON "Order"("paymentStatus", "status", "totalCents", "createdAt", "id");
CREATE INDEX "Order_domain_date_idx" ON "Order"("emailDomain", "paymentStatus", "createdAt", "status", "id");
CREATE INDEX "Order_domain_total_idx" ON "Order"("emailDomain", "paymentStatus", "totalCents", "createdAt", "status", "id");
CREATE INDEX "Order_paid_id_idx" ON "Order"("paymentStatus", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Hand-written: the existing orders' email domain (above, in the INSERT: the
-- mailbox after its one "@") and their paid orders per Los Angeles day.
-- SQLite has no time zones, so the day is the UTC time moved by Los Angeles'
-- offset: 7 hours from the second Sunday of March, 10:00 UTC, to the first
-- Sunday of November, 09:00 UTC (the US rule since 2007), 8 hours otherwise.
-- tests/integration/admin-dashboard.test.ts checks it against the shop's own.
INSERT INTO "DailySales" ("day", "orders", "revenueCents")
SELECT "day", COUNT(*), SUM("totalCents") FROM (
    SELECT date("createdAt", CASE
        WHEN datetime("createdAt") >= datetime(strftime('%Y', "createdAt") || '-03-01', 'weekday 0', '+7 days', '+10 hours')
         AND datetime("createdAt") < datetime(strftime('%Y', "createdAt") || '-11-01', 'weekday 0', '+9 hours')
        THEN '-7 hours' ELSE '-8 hours' END) AS "day", "totalCents"
    FROM "Order" WHERE "paymentStatus" = 'paid'
) GROUP BY "day";

-- Hand-written: the shape of the orders table, for SQLite's query planner.
-- Without statistics it takes "paymentStatus = 'paid'" to match ten rows, and
-- then prefers walking the date index to the id index for an id prefix search
-- (100,000 index entries instead of a few). These rows say what a shop's
-- orders look like (few payment and fulfilment statuses, many days, totals and
-- domains, unique ids), as SQLite documents for guiding its planner; an
-- ANALYZE later replaces them with the real counts, which say the same.
ANALYZE sqlite_master;
DELETE FROM "sqlite_stat1" WHERE "tbl" = 'Order';
INSERT INTO "sqlite_stat1" ("tbl", "idx", "stat") VALUES
    ('Order', NULL, '100000'),
    ('Order', 'sqlite_autoindex_Order_1', '100000 1'),
    ('Order', 'Order_firstOrderClaim_key', '100000 1'),
    ('Order', 'Order_stripeSessionId_key', '100000 1'),
    ('Order', 'Order_mailbox_paymentStatus_idx', '100000 2 1'),
    ('Order', 'Order_paid_date_idx', '100000 25000 1 1 1'),
    ('Order', 'Order_paid_total_idx', '100000 25000 10 1 1 1'),
    ('Order', 'Order_status_date_idx', '100000 25000 6000 1 1'),
    ('Order', 'Order_status_total_idx', '100000 25000 6000 2 1 1'),
    ('Order', 'Order_domain_date_idx', '100000 50 20 1 1 1'),
    ('Order', 'Order_domain_total_idx', '100000 50 20 2 1 1 1'),
    ('Order', 'Order_paid_id_idx', '100000 25000 1');
