-- Hand-written: the operator's name search (app/models/admin-orders.server.ts)
-- read from indexes alone, which schema.prisma cannot say (decision 073).
-- A name word is matched as lower(name) LIKE 'word%' on either name, as ILIKE
-- matched it (PostgreSQL's ILIKE lowers both sides the same way), each name
-- through its own index. Each holds what the list's filters and its orders
-- read, the names themselves included (PostgreSQL reads an expression's
-- index alone only when it holds the expression's columns too), so no row is
-- visited: at a million orders, gathering the 10,001 matches of "mar" through
-- the trigram index read and rechecked each row (43-51 ms); through these,
-- the index entries alone (12-16 ms). Not partial to paid
-- orders: the list's payment filter is a parameter, which a partial index's
-- condition cannot be proved from.
CREATE INDEX "Order_first_name_idx" ON "Order" (lower("firstName") text_pattern_ops)
  INCLUDE ("firstName", "lastName", "paymentStatus", "createdAt", "totalCents", "status", "id");
CREATE INDEX "Order_last_name_idx" ON "Order" (lower("lastName") text_pattern_ops)
  INCLUDE ("lastName", "firstName", "paymentStatus", "createdAt", "totalCents", "status", "id");

-- Hand-written: these replace migration 014's trigram index.
DROP INDEX "Order_name_trgm_idx";

-- Hand-written: the planner knows how many names start with a word only
-- from the statistics ANALYZE takes of an index's expression; until then it
-- guesses, and at a million orders it guessed a sixth of "mar"'s matches and
-- read the rows instead.
ANALYZE "Order";
