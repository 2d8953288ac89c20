/**
 * What a discount code can be, browser-safe: the owner's form and
 * save-discount-code hold new codes to it, and the customer's code field and
 * the functions that take a typed code refuse anything longer.
 */
export const DISCOUNT_CODE_MIN_LENGTH = 3;
export const DISCOUNT_CODE_MAX_LENGTH = 32;
/** Letters and digits, with single dashes between them (codes are kept upper case). */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9]+(-[A-Z0-9]+)*$/;
