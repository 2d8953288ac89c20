import { randomBytes } from "node:crypto";
import { db, isUniqueViolation, inTransaction, sqlIn } from "~/utils/db.server";
import { welcomeEmail } from "~/services/emails.server";
import { canonicalMailbox } from "~/lib/email";
import { enqueueEmails } from "~/services/outbox.server";

/** The newsletter (requirements §1-2): one row per address; the welcome email once. */

/**
 * Signs an address up; a second sign-up of the same mailbox (however it is
 * written: `x+news@`, dots in a Gmail address) is not an error and sends nothing.
 */
export async function subscribe(rawEmail: string, origin: string): Promise<{ created: boolean }> {
  const email = rawEmail.trim();
  const mailbox = canonicalMailbox(email);
  try {
    return await inTransaction(async (tx) => {
      const existing = await tx.subscriber.findUnique({ where: { mailbox } });
      if (existing) {
        if (existing.unsubscribedAt) await tx.subscriber.update({ where: { mailbox }, data: { unsubscribedAt: null } });
        return { created: false };
      }
      const unsubscribeToken = randomBytes(24).toString("base64url");
      await tx.subscriber.create({ data: { email, mailbox, unsubscribeToken } });
      await enqueueEmails(sqlIn(tx), [await welcomeEmail(email, `${origin}/unsubscribe?token=${unsubscribeToken}`)]);
      return { created: true };
    });
  } catch (error) {
    // Two sign-ups of one address at the same moment: the other one won.
    if (isUniqueViolation(error)) return { created: false };
    throw error;
  }
}

export async function unsubscribe(token: string) {
  const { count } = await db.subscriber.updateMany({
    where: { unsubscribeToken: token, unsubscribedAt: null },
    data: { unsubscribedAt: new Date() },
  });
  return count === 1;
}

export function findSubscriberByToken(token: string) {
  return db.subscriber.findUnique({ where: { unsubscribeToken: token }, select: { email: true, unsubscribedAt: true } });
}
