-- CreateIndex (hand-written: a partial index Prisma cannot express) the
-- Orders list's "Part-refunded" filter (decision 093): paid orders with part
-- of their total given back, by date or total. Few orders are, so the index is
-- small, and only a refund writes to it; without it the list read every paid
-- order's row, newest first, to find the few. Built CONCURRENTLY, alone in
-- its file, so that orders go on being written while it is built.
CREATE INDEX CONCURRENTLY "Order_part_refunded_idx" ON "Order"("createdAt", "totalCents", "id") WHERE "paymentStatus" = 'paid' AND "refundedCents" > 0;
