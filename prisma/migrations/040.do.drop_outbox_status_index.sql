-- DropIndex (issue 40): ("status", "nextAttemptAt") is replaced by 038's
-- ("status", "priority", "nextAttemptAt"). Dropped CONCURRENTLY, alone in its file.
DROP INDEX CONCURRENTLY "OutboxMessage_status_nextAttemptAt_idx";
