-- CreateIndex (hand-written: a partial index Prisma cannot express) the places
-- a delivery day holds (issue 39): counted for each day on offer and, under
-- the day's lock, while an order takes one. Only orders with a day are in it.
-- Built CONCURRENTLY, alone in its file, so that orders go on being written.
CREATE INDEX CONCURRENTLY "Order_delivery_day_idx" ON "Order"("deliveryDate", "deliverySlot") WHERE "deliveryDate" IS NOT NULL;
