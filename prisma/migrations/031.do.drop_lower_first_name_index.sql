-- 019's first-name index on lower(name), which no query reads since 029.
-- Dropped CONCURRENTLY, alone in its file, so that no read or write of
-- orders waits for it.
DROP INDEX CONCURRENTLY "Order_first_name_idx";
