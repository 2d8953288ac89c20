import { z } from "zod";
import { emailSchema } from "~/lib/email";

/**
 * The newsletter sign-up (requirements §2): one address, by the one email rule.
 * Browser-safe, so the banner's input takes its constraints from it too
 * (sent by the loader; its outcomes are `newsletterMessages` in ~/lib/messages).
 */
export const newsletterSchema = z.object({ email: emailSchema });
