-- The catalogue's version (docs/decisions/016): bumped with every product write,
-- compared by each server instance with the version of its cached catalogue and pages.
-- CreateTable
CREATE TABLE "CatalogVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "version" INTEGER NOT NULL DEFAULT 0
);

