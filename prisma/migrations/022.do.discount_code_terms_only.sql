-- squawk-ignore-file ban-drop-column
-- Hand-written: the columns 021 moved into "terms" go; every earlier release
-- reads them with each code, so this release is deployed by stopping every
-- instance, not rolled (docs/operations.md section 10, decision 088).
-- AlterTable
ALTER TABLE "DiscountCode" DROP COLUMN "amountOffCents",
DROP COLUMN "basisPoints",
ALTER COLUMN "terms" DROP DEFAULT;

