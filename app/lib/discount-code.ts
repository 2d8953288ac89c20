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

export const parseDiscountKind = (value: string): DiscountKind => (DISCOUNT_KINDS as readonly string[]).includes(value) ? (value as DiscountKind) : "percent";
export const parseDiscountScope = (value: string): DiscountScope => (DISCOUNT_SCOPES as readonly string[]).includes(value) ? (value as DiscountScope) : "all";
