import { z } from "zod";
import { emailSchema } from "~/lib/email";

/**
 * The partnership inquiry (spec §2), shared by the landing page's dialog, its
 * action and send-partnership-inquiry. Browser-safe, so the dialog's inputs
 * take their constraints from it too.
 */

export const SINGLE_LINE = "Use a single line without special characters";

const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    // Control characters (line breaks included) have no place in a name.
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, SINGLE_LINE);

export const partnershipSchema = z.object({
  // Chained rather than piped into a second string: the dialog reads the field's
  // constraints from the schema, and a pipe would hide its length and line rule.
  name: singleLine(100).min(1, "Required"),
  email: emailSchema,
  business: singleLine(120).optional().transform((value) => value || null),
  message: z.string().trim().min(1, "Required").max(5000, "At most 5,000 characters"),
});

export type PartnershipFields = keyof z.input<typeof partnershipSchema>;
