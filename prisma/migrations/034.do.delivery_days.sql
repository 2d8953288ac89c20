-- AddColumn: delivery days (issue 39, decision 100). The owner's schedule on
-- the settings row (null: the requirements' promise, its defaults), and on
-- each order the day its customer chose, its window's id and the window's
-- words as offered. Null on every order placed before: they show as before.
ALTER TABLE "ShopSettings" ADD COLUMN "deliverySchedule" JSONB;
ALTER TABLE "Order" ADD COLUMN "deliveryDate" DATE;
ALTER TABLE "Order" ADD COLUMN "deliverySlot" TEXT;
ALTER TABLE "Order" ADD COLUMN "deliverySlotLabel" TEXT;
