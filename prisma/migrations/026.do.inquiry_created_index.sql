-- CreateIndex: partnership inquiries newest first, as 025 for subscribers: the
-- page and the CSV export read them by ("createdAt", id). Built CONCURRENTLY,
-- alone in its file.
CREATE INDEX CONCURRENTLY "PartnershipInquiry_createdAt_id_idx" ON "PartnershipInquiry"("createdAt", "id");
