import { z } from "zod";
import { messages, type Message } from "~/lib/messages";
import { INVISIBLE_FORMATTING, isFreeOfInvisibleFormatting } from "~/lib/text";

/**
 * What every form shares between the browser and the server. Browser-safe:
 * the markup names the honeypot with the same constant the server reads.
 */

/** A hidden field people never see: a bot that fills it in gets a polite nothing (`isBot`). */
export const HONEYPOT_FIELD = "website";

export const SINGLE_LINE = "Use a single line without special characters";

/**
 * One line of text: control characters (CR, LF, NUL …) have no place in a
 * name or an address, nor have the invisible ones that make text read
 * otherwise than it looks (bidi overrides, zero-width spaces:
 * INVISIBLE_FORMATTING). One pattern, so the browser's input checks the same.
 */
const SINGLE_LINE_TEXT = new RegExp(`^[^\\u0000-\\u001f\\u007f${INVISIBLE_FORMATTING}]*$`);

export function singleLine(max: number) {
  return z.string().trim().max(max, `At most ${max} characters`).regex(SINGLE_LINE_TEXT, SINGLE_LINE);
}

/** What a message (a textarea) may hold: its lines, without the invisible characters that make text read otherwise than it looks. */
const INVISIBLE_TEXT = "Remove the invisible formatting characters (direction marks or zero-width spaces)";
export function multiLine(max: number, tooLong: string) {
  return z.string().trim().min(1, "Required").max(max, tooLong).refine(isFreeOfInvisibleFormatting, INVISIBLE_TEXT);
}

const DECIMAL_INTEGER = /^[+-]?\d{1,15}$/;

/** A whole number written in decimal digits (a sign allowed), or null: never "0x10", "1e3", "1.0" or "". */
export function parseDecimalInteger(text: string): number | null {
  const trimmed = text.trim();
  return DECIMAL_INTEGER.test(trimmed) ? Number(trimmed) : null;
}

/** A form field holding a whole number in decimal digits, as `parseDecimalInteger` reads it. */
export function decimalInteger(message: string) {
  return z
    .string({ invalid_type_error: message })
    .transform((text, ctx) => parseDecimalInteger(text) ?? (ctx.addIssue({ code: z.ZodIssueCode.custom, message }), z.NEVER));
}

/** The first message of each field that failed to parse, in the order the fields failed. */
export function firstFieldErrors<Input>(error: z.ZodError<Input>) {
  const firsts: Partial<Record<Extract<keyof Input, string>, string>> = {};
  const fieldErrors: Partial<Record<string, string[]>> = error.flatten().fieldErrors;
  for (const [field, messages] of Object.entries(fieldErrors)) {
    if (messages?.[0]) firsts[field as Extract<keyof Input, string>] = messages[0];
  }
  return firsts;
}

/**
 * The field errors of a failed parse, and the one message the spec shows for
 * them: Missing Information while a required field is empty, then Invalid
 * Email, then the message `special` gives for a field error, else Check Your
 * Details.
 */
export function describeFormErrors<Input>(error: z.ZodError<Input>, special: Record<string, Message> = {}) {
  const fieldErrors = firstFieldErrors(error);
  const problems: string[] = Object.values(fieldErrors);
  const message: Message = problems.includes("Required")
    ? messages.missingInformation
    : "email" in fieldErrors
      ? messages.invalidEmail
      : (problems.map((problem) => special[problem]).find(Boolean) ?? messages.checkDetails);
  return { fieldErrors, message };
}
