import { z } from "zod";
import { emailSchema } from "~/lib/email";
import { SINGLE_LINE, describeFormErrors, multiLine, singleLine } from "~/lib/forms";
import { partnershipMessages } from "~/lib/messages";

/**
 * The partnership inquiry (requirements §2), shared by the landing page's dialog, its
 * action and send-partnership-inquiry. Browser-safe, so the dialog's inputs
 * take their constraints from it too.
 */

export const partnershipSchema = z.object({
  // Chained rather than piped into a second string: the dialog reads the field's
  // constraints from the schema, and a pipe would hide its length and line rule.
  name: singleLine(100).min(1, "Required"),
  email: emailSchema,
  business: singleLine(120)
    .optional()
    .transform((value) => value || null),
  message: multiLine(5000, "At most 5,000 characters"),
});

export type PartnershipFields = keyof z.input<typeof partnershipSchema>;

/** The spec's message for an inquiry that did not parse, and the field errors. */
export function describePartnershipErrors(error: z.ZodError<z.input<typeof partnershipSchema>>) {
  return describeFormErrors(error, { [SINGLE_LINE]: partnershipMessages.invalidText });
}
