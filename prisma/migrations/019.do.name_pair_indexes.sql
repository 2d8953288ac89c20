-- Hand-written: the operator's name search read one range per way its words
-- fall on the two names (decision 076; app/lib/name-search.ts). Migration
-- 018's indexes were keyed on one name each: "olivia martinez" read every
-- order whose last name starts with "martinez" (about 31,000 of the bench's
-- million) to find the 857 whose first name starts with "olivia", 14 ms in
-- the database. Keyed on both names, the pair (olivia, martinez) is one
-- range of the first of these: 857 entries, 2 ms. A word alone ("mar") is
-- still the range of one name, the key's first column. Each index holds what
-- the list's filters and its orders read, as 018's did, so no row is visited.
DROP INDEX "Order_first_name_idx";
DROP INDEX "Order_last_name_idx";
CREATE INDEX "Order_first_name_idx" ON "Order" (lower("firstName") text_pattern_ops, lower("lastName") text_pattern_ops)
  INCLUDE ("firstName", "lastName", "paymentStatus", "createdAt", "totalCents", "status", "id");
CREATE INDEX "Order_last_name_idx" ON "Order" (lower("lastName") text_pattern_ops, lower("firstName") text_pattern_ops)
  INCLUDE ("lastName", "firstName", "paymentStatus", "createdAt", "totalCents", "status", "id");

-- As in 018: the planner knows how many names start with a word only from
-- the statistics ANALYZE takes of an index's expressions.
ANALYZE "Order";
