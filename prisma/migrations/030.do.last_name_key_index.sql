-- CreateIndex (hand-written: an expression index Prisma cannot express) 019's
-- last-name index keyed on name_key (migration 028), as 029 does the first.
CREATE INDEX CONCURRENTLY "Order_last_name_key_idx" ON "Order" (name_key("lastName") text_pattern_ops, name_key("firstName") text_pattern_ops)
  INCLUDE ("lastName", "firstName", "paymentStatus", "createdAt", "totalCents", "status", "id");
