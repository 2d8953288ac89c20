import type { z } from "zod";
import { inTransaction, sqlIn } from "~/utils/db.server";
import { partnershipEmail } from "~/services/emails.server";
import { normalizeEmail } from "~/lib/email";
import type { partnershipSchema } from "~/lib/partnership-form";
import { enqueueEmails } from "~/services/outbox.server";

/** Partnership inquiries (requirements §2): stored, and emailed to the team through the outbox. */
export async function submitInquiry(inquiry: z.infer<typeof partnershipSchema>) {
  await inTransaction(async (tx) => {
    const saved = await tx.partnershipInquiry.create({ data: { ...inquiry, email: normalizeEmail(inquiry.email) } });
    await enqueueEmails(sqlIn(tx), [await partnershipEmail(saved)]);
  });
}
