import type { EmailContent } from "~/emails.server";
import type { Prisma } from "~/generated/prisma/client";

/**
 * The email outbox (DESIGN.md §6): an email is a row written in the same
 * transaction as the change that causes it, so a change is never saved
 * without its email nor an email sent for a change that rolled back.
 */
export async function enqueueEmails(tx: Prisma.TransactionClient, emails: EmailContent[]) {
  for (const email of emails) {
    if (/[\r\n]/.test(email.to) || /[\r\n]/.test(email.subject)) {
      throw new Error("Refusing an email whose header contains a line break");
    }
  }
  await tx.outboxMessage.createMany({
    data: emails.map((email) => ({
      kind: email.kind,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      orderId: email.orderId ?? null,
    })),
  });
}
