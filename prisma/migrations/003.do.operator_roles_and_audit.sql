-- CreateEnum
CREATE TYPE "OperatorRole" AS ENUM ('owner', 'staff');

-- AlterTable
ALTER TABLE "AdminUser" ADD COLUMN     "role" "OperatorRole" NOT NULL DEFAULT 'owner';

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" SERIAL NOT NULL,
    "actorEmail" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEntry_subjectType_subjectId_createdAt_idx" ON "AuditEntry"("subjectType", "subjectId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEntry_createdAt_idx" ON "AuditEntry"("createdAt");

