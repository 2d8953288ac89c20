-- The planner knows how many names start with a word only from the
-- statistics ANALYZE takes of an index's expressions (as in 018 and 019):
-- those of 029's and 030's name_key indexes. ANALYZE reads a sample of the
-- table and blocks no reads or writes.
ANALYZE "Order";
