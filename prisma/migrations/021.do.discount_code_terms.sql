-- AlterTable
ALTER TABLE "DiscountCode" ADD COLUMN     "terms" JSONB NOT NULL DEFAULT '{}';



-- Hand-written: each code's figures, from the columns they were kept in, into
-- the one its kind is read from (decision 088). A code with none of its
-- kind's figures (an amount code without its cents) keeps '{}', which the
-- shop then refuses with an error naming the code, instead of taking nothing off.
UPDATE "DiscountCode" SET "terms" = jsonb_build_object('basisPoints', "basisPoints") WHERE "kind" = 'percent';
UPDATE "DiscountCode" SET "terms" = jsonb_build_object('amountOffCents', "amountOffCents") WHERE "kind" = 'amount' AND "amountOffCents" IS NOT NULL;
