import { dollarsToCents, formatCents } from "./money";

/**
 * What a discount code can be, browser-safe: the owner's form and
 * save-discount-code hold new codes to it, and the customer's code field and
 * the functions that take a typed code refuse anything longer.
 */
export const DISCOUNT_CODE_MIN_LENGTH = 3;
export const DISCOUNT_CODE_MAX_LENGTH = 32;
/** Letters and digits, with single dashes between them (codes are kept upper case). */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9]+(-[A-Z0-9]+)*$/;

/** What a code gives (docs/decisions/053, 088), in the order the owner's form offers them. */
export const DISCOUNT_KINDS = ["percent", "amount", "free-shipping"] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/**
 * Each kind's own figures in the owner's units (whole percents, dollars), as
 * save-discount-code takes them beside `kind` and get-discount-codes answers
 * them (decision 088). A kind with a figure of its own declares it here; the
 * server's rules for the kind (models/discount-kinds.server.ts: its check,
 * how it is stored, what it takes off) and the owner's inputs for it then fail
 * tsc until they are written.
 */
export type DiscountKindTerms = {
  percent: { percentOff: number };
  amount: { amountOff: number };
  "free-shipping": Record<never, never>;
};

/** A kind with its figures: `{ kind: "percent", percentOff: 15 }`. */
export type DiscountOffer = { [K in DiscountKind]: { kind: K } & DiscountKindTerms[K] }[DiscountKind];

/** Each kind's name, as the owner's form offers it. */
export const DISCOUNT_KIND_NAMES: Record<DiscountKind, string> = { percent: "Percent off", amount: "Amount off", "free-shipping": "Free shipping" };

/** The server's dollars as the shop writes money (no sum: only how it is written). */
const money = (dollars: number) => formatCents(dollarsToCents(dollars));

/** What a code gives, in words: "10% off", "$5.00 off", "Free shipping". */
export function offerInWords(offer: DiscountOffer): string {
  switch (offer.kind) {
    case "percent":
      return `${offer.percentOff}% off`;
    case "amount":
      return `${money(offer.amountOff)} off`;
    case "free-shipping":
      return "Free shipping";
    default:
      return unknownKind(offer);
  }
}

function unknownKind(offer: never): never {
  throw new Error(`No words for the discount kind of ${JSON.stringify(offer)}`);
}

/** The lines a code's discount is taken from, and its minimum measured on. */
export const DISCOUNT_SCOPES = ["all", "bars", "bites"] as const;
export type DiscountScope = (typeof DISCOUNT_SCOPES)[number];

/** A code's terms in words: "10% off", "$5.00 off orders of $40.00+, bars only", "Free shipping on orders of $30.00+". */
export function termsInWords(code: DiscountOffer & { minimumSubtotal: number | null; appliesTo: DiscountScope }) {
  const minimum = code.minimumSubtotal === null ? "" : `${code.kind === "free-shipping" ? " on" : ""} orders of ${money(code.minimumSubtotal)}+`;
  const scope = code.appliesTo === "all" ? "" : `, ${code.appliesTo} only`;
  return `${offerInWords(code)}${minimum}${scope}`;
}

/** What a customer is told about a code whose terms this version cannot work out. */
export const codeNotUnderstood = (code: string) => `"${code}" cannot be used just now. Please try again in a few minutes.`;
