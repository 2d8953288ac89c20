import { randomBytes } from "node:crypto";
import { z } from "zod";
import { brand } from "~/brand";
import { db } from "~/db.server";
import { welcomeEmail } from "~/emails.server";
import { emailSchema } from "~/lib/checkout-form";
import type { Message } from "~/lib/messages";
import { enqueueEmails } from "~/outbox.server";
import { normalizeEmail } from "~/pricing.server";

/** The newsletter (spec §1-2): one row per address; the welcome email once. */

export const newsletterSchema = z.object({ email: emailSchema });

export const newsletterMessages = {
  welcome: { title: `Welcome to ${brand.name}! 🎉`, description: "Check your email for your 10% off code: WELCOME10!" },
  failed: { title: "Something went wrong", description: "Please try again or contact us directly.", destructive: true },
} satisfies Record<string, Message>;

/** Signs an address up; a second sign-up is not an error and sends nothing. */
export async function subscribe(rawEmail: string, origin: string): Promise<{ created: boolean }> {
  const email = normalizeEmail(rawEmail);
  try {
    return await db.$transaction(async (tx) => {
      const existing = await tx.subscriber.findUnique({ where: { email } });
      if (existing) {
        if (existing.unsubscribedAt) await tx.subscriber.update({ where: { email }, data: { unsubscribedAt: null } });
        return { created: false };
      }
      const unsubscribeToken = randomBytes(24).toString("base64url");
      await tx.subscriber.create({ data: { email, unsubscribeToken } });
      await enqueueEmails(tx, [welcomeEmail(email, `${origin}/unsubscribe?token=${unsubscribeToken}`)]);
      return { created: true };
    });
  } catch (error) {
    // Two sign-ups of one address at the same moment: the other one won.
    if (error instanceof Error && "code" in error && error.code === "P2002") return { created: false };
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
