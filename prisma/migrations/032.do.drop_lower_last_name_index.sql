-- 019's last-name index on lower(name), which no query reads since 030,
-- dropped as 031 drops the first-name one.
DROP INDEX CONCURRENTLY "Order_last_name_idx";
