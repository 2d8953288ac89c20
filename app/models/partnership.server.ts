import type { z } from "zod";
import { db } from "~/utils/db.server";
import { partnershipEmail } from "~/services/emails.server";
import { normalizeEmail } from "~/lib/email";
import { firstFieldErrors } from "~/lib/forms";
import { messages, type Message } from "~/lib/messages";
import { SINGLE_LINE, type PartnershipFields, type partnershipSchema } from "~/lib/partnership-form";
import { enqueueEmails } from "~/services/outbox.server";

/** Partnership inquiries (spec §2): stored, and emailed to the team through the outbox. */

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
export function describePartnershipErrors(error: z.ZodError<z.input<typeof partnershipSchema>>) {
  const fieldErrors: Partial<Record<PartnershipFields, string>> = firstFieldErrors(error);
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
    const saved = await tx.partnershipInquiry.create({ data: { ...inquiry, email: normalizeEmail(inquiry.email) } });
    await enqueueEmails(tx, [partnershipEmail(saved)]);
  });
}
