/**
 * What a discount code can be, browser-safe: the owner's form and
 * save-discount-code hold new codes to it, and the customer's code field and
 * the functions that take a typed code refuse anything longer.
 */
export const DISCOUNT_CODE_MIN_LENGTH = 3;
export const DISCOUNT_CODE_MAX_LENGTH = 32;
/** Letters and digits, with single dashes between them (codes are kept upper case). */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9]+(-[A-Z0-9]+)*$/;

/** What a code gives (docs/decisions/053). */
export const DISCOUNT_KINDS = ["percent", "amount", "free-shipping"] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** The lines a code's discount is taken from, and its minimum measured on. */
export const DISCOUNT_SCOPES = ["all", "bars", "bites"] as const;
export type DiscountScope = (typeof DISCOUNT_SCOPES)[number];

/**
 * A stored code's kind and scope as this version knows them, or null for one
 * it does not (a newer instance's, in a rolling restart): never a default,
 * which would price a new kind as 0% off.
 */
export const discountKindOf = (value: string): DiscountKind | null => DISCOUNT_KINDS.find((kind) => kind === value) ?? null;
export const discountScopeOf = (value: string): DiscountScope | null => DISCOUNT_SCOPES.find((scope) => scope === value) ?? null;

/** What a customer is told about a code whose terms this version cannot work out. */
export const codeNotUnderstood = (code: string) => `"${code}" cannot be used just now. Please try again in a few minutes.`;

/** The error (for the person on call, no customer data in it) about such a code. */
export function unknownTermsError(code: string, kind: string, appliesTo: string) {
  const what = discountKindOf(kind) === null ? `kind "${kind}"` : `scope "${appliesTo}"`;
  return new Error(`Discount code ${code} is stored with ${what}, which this version of the shop does not know`);
}
