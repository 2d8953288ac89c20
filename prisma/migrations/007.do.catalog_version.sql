-- CreateTable
CREATE TABLE "CatalogVersion" (
    "id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CatalogVersion_pkey" PRIMARY KEY ("id")
);

