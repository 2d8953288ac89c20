import type { z } from "zod";

/**
 * What every form shares between the browser and the server. Browser-safe:
 * the markup names the honeypot with the same constant the server reads.
 */

/** A hidden field people never see: a bot that fills it in gets a polite nothing (`isBot`). */
export const HONEYPOT_FIELD = "website";

/** The first message of each field that failed to parse, in the order the fields failed. */
export function firstFieldErrors<Input>(error: z.ZodError<Input>) {
  const firsts: Partial<Record<Extract<keyof Input, string>, string>> = {};
  const fieldErrors: Partial<Record<string, string[]>> = error.flatten().fieldErrors;
  for (const [field, messages] of Object.entries(fieldErrors)) {
    if (messages?.[0]) firsts[field as Extract<keyof Input, string>] = messages[0];
  }
  return firsts;
}
