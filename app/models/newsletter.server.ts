import { randomBytes } from "node:crypto";
import { at, db, isUniqueViolation, inTransaction, sqlIn } from "~/utils/db.server";
import { withdrawCopies } from "~/models/campaigns.server";
import { welcomeEmail } from "~/services/emails.server";
import { canonicalMailbox } from "~/lib/email";
import { enqueueEmails } from "~/services/outbox.server";
import { shopSettings } from "~/models/catalog.server";

/** The newsletter (requirements §1-2): one row per address; the welcome email once. */

/**
 * Signs an address up; a second sign-up of the same mailbox (however it is
 * written: `x+news@`, dots in a Gmail address) is not an error and sends nothing.
 */
export async function subscribe(rawEmail: string, origin: string): Promise<{ created: boolean }> {
  const email = rawEmail.trim();
  const mailbox = canonicalMailbox(email);
  const settings = await shopSettings();
  try {
    return await inTransaction(async (tx) => {
      const existing = await tx.subscriber.findUnique({ where: { mailbox } });
      if (existing) {
        // Back on the list: their consent is this sign-up's, on the form.
        if (existing.unsubscribedAt) {
          await tx.subscriber.update({ where: { mailbox }, data: { unsubscribedAt: null, source: "form", consentAt: new Date(), consentNote: null } });
        }
        return { created: false };
      }
      const unsubscribeToken = randomBytes(24).toString("base64url");
      await tx.subscriber.create({ data: { email, mailbox, unsubscribeToken } });
      await enqueueEmails(sqlIn(tx), [await welcomeEmail(email, `${origin}/unsubscribe?token=${unsubscribeToken}`, settings)]);
      return { created: true };
    });
  } catch (error) {
    // Two sign-ups of one address at the same moment: the other one won.
    if (isUniqueViolation(error)) return { created: false };
    throw error;
  }
}

/**
 * Takes an address off the list at once (the page's button, or a mail
 * program's one-click POST): and with it every campaign copy not yet gone to
 * it, in the same transaction (decision 101).
 */
export async function unsubscribe(token: string) {
  return takeOff({ unsubscribeToken: token });
}

/**
 * The owner takes an address off the list, in any spelling of its mailbox
 * (a request by email, to the List-Unsubscribe mailto): "left" now, "already"
 * if it had, "unknown" if it was never on it.
 */
export async function unsubscribeMailbox(email: string): Promise<"left" | "already" | "unknown"> {
  const mailbox = canonicalMailbox(email);
  if (await takeOff({ mailbox })) return "left";
  return (await db.subscriber.count({ where: { mailbox } })) > 0 ? "already" : "unknown";
}

/** Off the list at once, with every campaign copy not yet gone to it, in one transaction (decision 101). */
async function takeOff(which: { unsubscribeToken: string } | { mailbox: string }) {
  return inTransaction(async (tx) => {
    const left = await sqlIn(tx)
      .db.updateTable("Subscriber")
      .set({ unsubscribedAt: at(new Date()) })
      .where((eb) => ("mailbox" in which ? eb("mailbox", "=", which.mailbox) : eb("unsubscribeToken", "=", which.unsubscribeToken)))
      .where("unsubscribedAt", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!left) return false;
    await withdrawCopies(sqlIn(tx), { subscriberIds: [left.id] }, "Its subscriber unsubscribed");
    return true;
  });
}

export function findSubscriberByToken(token: string) {
  return db.subscriber.findUnique({ where: { unsubscribeToken: token }, select: { email: true, unsubscribedAt: true } });
}
