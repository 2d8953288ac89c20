-- CreateIndex: the family list newest first (issue 38 item 6). Its page and its
-- CSV export sort by ("createdAt", id); without an index each of the export's
-- batches was a sequential scan and a sort of the whole list, so 100,000
-- subscribers took 2.7 s and grew with the square of the list. Built
-- CONCURRENTLY, alone in its file: sign-ups go on while it is built.
CREATE INDEX CONCURRENTLY "Subscriber_createdAt_id_idx" ON "Subscriber"("createdAt", "id");
