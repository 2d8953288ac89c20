-- CreateTable
CREATE TABLE "DatabaseRole" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "role" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatabaseRole_pkey" PRIMARY KEY ("id")
);

