import { z } from "zod";
import { brand } from "~/lib/brand";
import { emailSchema } from "~/lib/email";
import type { Message } from "~/lib/messages";

/**
 * The newsletter sign-up (requirements §2): one address, by the one email rule.
 * Browser-safe, so the banner's input takes its constraints from it too.
 */
export const newsletterSchema = z.object({ email: emailSchema });

export const newsletterMessages = {
  welcome: { title: `Welcome to ${brand.name}! 🎉`, description: "Check your email for your 10% off code: WELCOME10!" },
  failed: { title: "Something went wrong", description: "Please try again or contact us directly.", destructive: true },
} satisfies Record<string, Message>;
