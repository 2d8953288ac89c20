import { z } from "zod";

/**
 * The one email rule for every form and function, and the canonical mailbox
 * that first-order rules compare. Browser-safe: no I/O.
 *
 * Stricter than requirements §5's "text @ text . text, no spaces" (which it implies):
 * one mailbox only, so no control characters, list separators (`,` `;`),
 * angle brackets or double quotes, and a domain made of real DNS labels.
 */

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export const EMAIL_MAX_LENGTH = 254;
const INVALID_EMAIL = "Enter a valid email address";

/** True for one plain address such as `maya.rivera+bars@example.com` (a trailing dot on the domain is allowed). */
export function isEmailAddress(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.lastIndexOf("@");
  if (at < 1) return false;
  const local = value.slice(0, at);
  const labels = value
    .slice(at + 1)
    .replace(/\.$/, "")
    .split(".");
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  return TOP_LEVEL.test(labels[labels.length - 1]!);
}

/** The shared field schema: trimmed, required, at most 254 characters, one plain address. */
export const emailSchema = z
  .string({ required_error: "Required" })
  .trim()
  .min(1, "Required")
  .max(EMAIL_MAX_LENGTH, `At most ${EMAIL_MAX_LENGTH} characters`)
  .refine(isEmailAddress, INVALID_EMAIL);

/** An address as it is compared and stored where case does not matter (operator accounts, inquiries). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The mailbox an address delivers to, for "once per customer" rules
 * (WELCOME10, one welcome email): lower case, no trailing dot on the domain,
 * no `+tag`, and for Gmail no dots and googlemail.com folded into gmail.com.
 * The address shown and mailed stays as the customer typed it.
 */
export function canonicalMailbox(email: string): string {
  const address = normalizeEmail(email);
  const at = address.lastIndexOf("@");
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.+$/, "");
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = "gmail.com";
    local = local.replaceAll(".", "");
  }
  return `${local}@${domain}`;
}

/**
 * The domain of an address's canonical mailbox (`gmail.com` for
 * `Maya@GoogleMail.com`): stored with each order, and what the operator's
 * domain search compares, so both sides fold case and Gmail alike.
 */
export function mailboxDomain(email: string): string {
  const mailbox = canonicalMailbox(email);
  return mailbox.slice(mailbox.lastIndexOf("@") + 1);
}
