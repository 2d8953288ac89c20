-- CreateIndex (issue 40, decision 101): one copy of a campaign for each
-- subscriber, however many instances start or send it. Rows that are not a
-- campaign's have NULLs here, which a unique index does not compare. Built
-- CONCURRENTLY, alone in its file.
CREATE UNIQUE INDEX CONCURRENTLY "OutboxMessage_campaignId_subscriberId_key" ON "OutboxMessage"("campaignId", "subscriberId");
