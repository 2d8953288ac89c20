import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { env } from "~/env.server";

/**
 * The email transport: SMTP at SMTP_URL, or, without it, .eml files in
 * var/mail/ that any mail program opens (the demo needs no mail server).
 */

export type OutgoingEmail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  unsubscribeUrl: string | null;
};

export type Mailer = { send(email: OutgoingEmail): Promise<void> };

export const MAIL_DIRECTORY = path.resolve("var/mail");

function envelope(email: OutgoingEmail) {
  return {
    from: env.MAIL_FROM,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: `<${email.id}@chillpb.mail>`,
    headers: email.unsubscribeUrl
      ? { "List-Unsubscribe": `<${email.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
      : undefined,
  };
}

export function createMailer(smtpUrl: string | undefined = env.SMTP_URL): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as nodemailer.TransportOptions);
    return {
      async send(email) {
        await transport.sendMail(envelope(email));
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(email) {
      const info = await transport.sendMail(envelope(email));
      await mkdir(MAIL_DIRECTORY, { recursive: true });
      await writeFile(path.join(MAIL_DIRECTORY, `${new Date().toISOString().replace(/[:.]/g, "-")}-${email.id}.eml`), info.message as Buffer);
    },
  };
}
