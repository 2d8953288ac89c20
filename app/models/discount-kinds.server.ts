import { z } from "zod";
import { DISCOUNT_KINDS, DISCOUNT_SCOPES, type DiscountKind, type DiscountOffer, type DiscountScope } from "~/lib/discount-code";
import { centsToDollars, dollarsToCents } from "~/lib/money";
import { parseStored } from "~/utils/stored.server";

/**
 * Everything the server knows about a kind of discount code, one kind beside
 * the next (decision 088): how the owner's figures are checked
 * (save-discount-code and preview-discount-code take them beside `kind`), how
 * the row's `terms` column keeps them (cents and basis points, read back
 * through a schema, never cast), and what the kind takes off an order. Each
 * is typed by DiscountKindTerms (app/lib/discount-code.ts) or switches over
 * the kinds to a `never`, so a kind declared there fails tsc here until it has
 * all three. Here, not in app/lib: zod stays out of the browser's code.
 */

/** The figures as the row's `terms` keeps them: whole cents, and percents as basis points (1000 = 10%). */
type StoredKindTerms = {
  percent: { basisPoints: number };
  amount: { amountOffCents: number };
  "free-shipping": Record<never, never>;
};

/** A stored kind with its stored figures: `{ kind: "percent", terms: { basisPoints: 1500 } }`. */
export type StoredOffer = { [K in DiscountKind]: { kind: K; terms: StoredKindTerms[K] } }[DiscountKind];

/** No code takes more than this off: a typo of an extra digit is refused rather than given away. */
const MAX_AMOUNT_DOLLARS = 1_000;

const percentOff = z
  .number({ required_error: "Percent off is required", invalid_type_error: "Percent off must be a number" })
  .int("Percent off must be a whole number")
  .min(1, "Percent off must be between 1 and 100")
  .max(100, "Percent off must be between 1 and 100");

const amountOff = z
  .number({ required_error: "Amount off is required, more than $0.00", invalid_type_error: "Amount off must be a number of dollars" })
  .refine((value) => Number.isFinite(value) && Math.abs(centsToDollars(dollarsToCents(value)) - value) < 1e-8, "Amount off can have at most 2 decimals")
  .refine((value) => value > 0, "Amount off is required, more than $0.00")
  .refine((value) => value <= MAX_AMOUNT_DOLLARS, `Amount off must be between $0.00 and $${MAX_AMOUNT_DOLLARS.toLocaleString("en-US")}.00`);

const KIND_MESSAGE = `Kind must be one of ${DISCOUNT_KINDS.join(", ")}`;

/**
 * A kind and its figures as the owner's functions take them, `kind` "percent"
 * when left out; each figure's message is on its own path (`percentOff`).
 * Other keys of the body are left for the schema beside it.
 */
export const offerBodySchema: z.ZodType<DiscountOffer, z.ZodTypeDef, unknown> = z.preprocess(
  (body) => (body !== null && typeof body === "object" && !("kind" in body) ? { ...body, kind: "percent" } : body),
  z.discriminatedUnion(
    "kind",
    [z.object({ kind: z.literal("percent"), percentOff }), z.object({ kind: z.literal("amount"), amountOff }), z.object({ kind: z.literal("free-shipping") })],
    { errorMap: (issue, context) => ({ message: issue.code === "invalid_union_discriminator" ? KIND_MESSAGE : context.defaultError }) },
  ),
);

const storedOfferSchema: z.ZodType<StoredOffer> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("percent"), terms: z.object({ basisPoints: z.number().int().min(1).max(10_000) }) }),
  z.object({ kind: z.literal("amount"), terms: z.object({ amountOffCents: z.number().int().positive() }) }),
  z.object({ kind: z.literal("free-shipping"), terms: z.object({}) }),
]);

/** The owner's figures as the row keeps them. */
export function storeOffer(offer: DiscountOffer): StoredOffer {
  switch (offer.kind) {
    case "percent":
      return { kind: offer.kind, terms: { basisPoints: offer.percentOff * 100 } };
    case "amount":
      return { kind: offer.kind, terms: { amountOffCents: dollarsToCents(offer.amountOff) } };
    case "free-shipping":
      return { kind: offer.kind, terms: {} };
    default:
      return unknownKind(offer);
  }
}

/** The row's figures in the owner's units, as get-discount-codes answers them and the audit records them. */
export function showOffer(offer: StoredOffer): DiscountOffer {
  switch (offer.kind) {
    case "percent":
      return { kind: offer.kind, percentOff: offer.terms.basisPoints / 100 };
    case "amount":
      return { kind: offer.kind, amountOff: centsToDollars(offer.terms.amountOffCents) };
    case "free-shipping":
      return { kind: offer.kind };
    default:
      return unknownKind(offer);
  }
}

/** A discount of `basisPoints` (1000 = 10%) on the subtotal: round to the cent, half up, in integers. */
export function discountCentsFor(subtotalCents: number, basisPoints: number) {
  return Math.floor((subtotalCents * basisPoints + 5000) / 10000);
}

/** What a code takes off the lines it covers (`coveredCents`, their subtotal), never more than they cost. */
export function centsOff(offer: StoredOffer, coveredCents: number): number {
  switch (offer.kind) {
    case "percent":
      return discountCentsFor(coveredCents, offer.terms.basisPoints);
    case "amount":
      return Math.min(offer.terms.amountOffCents, coveredCents);
    case "free-shipping":
      // Its worth is the shipping it waives (waivesShipping), not the lines.
      return 0;
    default:
      return unknownKind(offer);
  }
}

/** Whether an order holding the code ships free, whatever its subtotal. */
export const waivesShipping = (offer: StoredOffer) => offer.kind === "free-shipping";

function unknownKind(offer: never): never {
  throw new Error(`No rule for the discount kind of ${JSON.stringify(offer)}`);
}

/**
 * A row's kind and terms as this version reads them. A kind it does not know
 * (a newer instance's, in a rolling restart) or figures it cannot read is an
 * error naming the code, never a default, which would price a new kind as 0%
 * off.
 */
export function storedOfferOf(row: { code: string; kind: string; terms: unknown }): StoredOffer {
  if (!DISCOUNT_KINDS.some((kind) => kind === row.kind)) {
    throw new Error(`Discount code ${row.code} is stored with kind "${row.kind}", which this version of the shop does not know`);
  }
  return parseStored(`terms of discount code ${row.code}`, storedOfferSchema, { kind: row.kind, terms: row.terms });
}

/** A row's scope as this version reads it: one it does not know is an error naming the code, as a kind is. */
export function storedScopeOf(row: { code: string; appliesTo: string }): DiscountScope {
  const scope = DISCOUNT_SCOPES.find((known) => known === row.appliesTo);
  if (scope === undefined) throw new Error(`Discount code ${row.code} is stored with scope "${row.appliesTo}", which this version of the shop does not know`);
  return scope;
}
