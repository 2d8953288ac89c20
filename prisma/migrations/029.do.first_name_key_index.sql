-- CreateIndex (hand-written: an expression index Prisma cannot express) 019's
-- first-name index keyed on name_key (migration 028) instead of lower(name),
-- holding what the list's filters and its orders read, as 019's did. Built
-- CONCURRENTLY, alone in its file, so that orders go on being written.
CREATE INDEX CONCURRENTLY "Order_first_name_key_idx" ON "Order" (name_key("firstName") text_pattern_ops, name_key("lastName") text_pattern_ops)
  INCLUDE ("firstName", "lastName", "paymentStatus", "createdAt", "totalCents", "status", "id");
