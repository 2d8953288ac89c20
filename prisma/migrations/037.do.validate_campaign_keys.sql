-- Validates 036's foreign keys (issue 40), in a transaction of their own:
-- VALIDATE CONSTRAINT reads the outbox without blocking its writes.
ALTER TABLE "OutboxMessage" VALIDATE CONSTRAINT "OutboxMessage_campaignId_fkey";
ALTER TABLE "OutboxMessage" VALIDATE CONSTRAINT "OutboxMessage_subscriberId_fkey";
