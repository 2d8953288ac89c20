import { z } from "zod";
import { db } from "~/db.server";
import { partnershipEmail } from "~/emails.server";
import { emailSchema } from "~/lib/email";
import { messages, type Message } from "~/lib/messages";
import { enqueueEmails } from "~/outbox.server";

/** Partnership inquiries (spec §2): stored, and emailed to the team through the outbox. */

const SINGLE_LINE = "Use a single line without special characters";

const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    // Control characters (line breaks included) have no place in a name.
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, SINGLE_LINE);

export const partnershipSchema = z.object({
  name: singleLine(100).pipe(z.string().min(1, "Required")),
  email: emailSchema,
  business: singleLine(120).optional().transform((value) => value || null),
  message: z.string().trim().min(1, "Required").max(5000, "At most 5,000 characters"),
});

export type PartnershipFields = "name" | "email" | "business" | "message";

export const partnershipMessages = {
  sent: { title: "Message Sent!", description: "Thank you for your interest! We'll be in touch soon." },
  failed: {
    title: "Error Sending Message",
    description: "There was an issue sending your message. Please try again.",
    destructive: true,
  },
  invalidText: {
    title: "Check Your Details",
    description: "Please keep your name and business name on a single line.",
    destructive: true,
  },
} satisfies Record<string, Message>;

/** The spec's message for a form that did not parse, and the field errors. */
export function describePartnershipErrors(error: z.ZodError) {
  const fieldErrors: Partial<Record<PartnershipFields, string>> = {};
  for (const issue of error.issues) fieldErrors[issue.path[0] as PartnershipFields] ??= issue.message;
  const problems = Object.values(fieldErrors);
  const message: Message = problems.includes("Required")
    ? messages.missingInformation
    : fieldErrors.email
      ? messages.invalidEmail
      : problems.includes(SINGLE_LINE)
        ? partnershipMessages.invalidText
        : messages.checkDetails;
  return { fieldErrors, message };
}

export async function submitInquiry(inquiry: z.infer<typeof partnershipSchema>) {
  await db.$transaction(async (tx) => {
    const saved = await tx.partnershipInquiry.create({ data: { ...inquiry, email: inquiry.email.toLowerCase() } });
    await enqueueEmails(tx, [partnershipEmail(saved)]);
  });
}
