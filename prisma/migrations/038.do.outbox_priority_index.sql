-- CreateIndex (issue 40, decision 101): the outbox's claim takes the shop's own
-- emails (priority 0) before a campaign's (1), oldest first, so an order's
-- confirmation never waits behind a list being sent. Replaces
-- ("status", "nextAttemptAt"), dropped in 040. Built CONCURRENTLY, alone in its
-- file: emails go on being queued while it is built.
CREATE INDEX CONCURRENTLY "OutboxMessage_status_priority_nextAttemptAt_idx" ON "OutboxMessage"("status", "priority", "nextAttemptAt");
