-- CreateIndex (hand-written: a partial index Prisma cannot express) the day's
-- work (issue 38 item 6): paid orders not yet shipped, oldest first, for the
-- Prepare page, the day sheet and the packing slips. get-preparation read the
-- paid-by-date index from the oldest paid order on and threw away every
-- delivered one on its way to the 500 it lists (25,133 rows at 100,000 orders,
-- 101 ms; 166 ms at 1,000,000). This one holds only the orders still to make,
-- so the list and its count read those and nothing else. Built CONCURRENTLY,
-- alone in its file, so that orders go on being written while it is built.
CREATE INDEX CONCURRENTLY "Order_to_prepare_idx" ON "Order"("createdAt", "id") WHERE "paymentStatus" = 'paid' AND "status" IN ('pending', 'preparing');
