import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { env } from "~/utils/env.server";

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

export type Mailer = {
  send(email: OutgoingEmail): Promise<void>;
  /** Ends the transport's open connections (SMTP's pool), once nothing more will be sent. */
  close?(): void;
};

const MAIL_DIRECTORY = path.resolve("var/mail");

/** The address part of MAIL_FROM ("Chill PB <hello@chillpb.com>" → hello@chillpb.com). */
export function mailFromAddress(from = env.MAIL_FROM) {
  return (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
}

/**
 * The headers of a list email (RFC 2369, RFC 8058): its unsubscribe link,
 * which a mail program may POST to at once ("one-click", as Gmail and Yahoo
 * require of bulk senders since 2024), and a mailto for programs that only
 * write; that one reaches the shop's own inbox, to be honoured by hand.
 */
export function listHeaders(unsubscribeUrl: string) {
  const mailto = `mailto:${mailFromAddress()}?subject=${encodeURIComponent("Unsubscribe")}`;
  return { "List-Unsubscribe": `<${unsubscribeUrl}>, <${mailto}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

function envelope(email: OutgoingEmail) {
  return {
    from: env.MAIL_FROM,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: `<${email.id}@chillpb.mail>`,
    headers: email.unsubscribeUrl ? listHeaders(email.unsubscribeUrl) : undefined,
    dkim: dkimOptions(),
  };
}

/**
 * nodemailer's DKIM signing (decision 101), with DKIM_PRIVATE_KEY and
 * DKIM_SELECTOR, for MAIL_FROM's domain; none without them. Given with each
 * message, so that every transport signs, the .eml files of the demo
 * included: what is checked there is what a mailbox receives.
 */
export function dkimOptions() {
  if (!env.DKIM_PRIVATE_KEY || !env.DKIM_SELECTOR) return undefined;
  const domainName = mailFromAddress().split("@")[1];
  if (!domainName) return undefined;
  return { domainName, keySelector: env.DKIM_SELECTOR, privateKey: env.DKIM_PRIVATE_KEY };
}

/**
 * How long the SMTP client waits: to connect, for the server's greeting, and
 * for any one reply (the socket's idle time). The outbox's lease
 * (`LEASE_MS` in outbox.server.ts) is twice the socket timeout, and is renewed
 * while a send is in flight, so no send outlives the lease on its row.
 */
export const SMTP_TIMEOUTS = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };

export function createMailer(smtpUrl: string | undefined = env.SMTP_URL, timeouts: Partial<typeof SMTP_TIMEOUTS> = {}, connections = 1): Mailer {
  if (smtpUrl) {
    const { connectionMs, greetingMs, socketMs } = { ...SMTP_TIMEOUTS, ...timeouts };
    // Connections kept open and reused (nodemailer's pool), one for each send
    // the outbox has in flight: a new SMTP conversation per email costs a
    // greeting, often delayed on purpose by the server; measured against a
    // local server, 146 ms an email without the pool and 49 ms with it.
    // Given a `url`, nodemailer takes its transport's options from the URL
    // alone and ignores the object's other keys: the pool and the timeouts go
    // in the URL (the owner's SMTP_URL may set them itself), DKIM on each message.
    const pooled = new URL(smtpUrl);
    const settings = {
      pool: "true",
      maxConnections: String(connections),
      connectionTimeout: String(connectionMs),
      greetingTimeout: String(greetingMs),
      socketTimeout: String(socketMs),
    };
    for (const [name, value] of Object.entries(settings)) if (!pooled.searchParams.has(name)) pooled.searchParams.set(name, value);
    const transport = nodemailer.createTransport({ url: pooled.toString() } as nodemailer.TransportOptions);
    return {
      async send(email) {
        await transport.sendMail(envelope(email));
      },
      close() {
        transport.close();
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

type SmtpError = Error & { code?: string; command?: string; responseCode?: number };

/**
 * Whether a failed send will fail the same way however often it is retried:
 * the server refused this message (MAIL FROM, RCPT TO or DATA) with a 5xx
 * reply, e.g. "550 5.1.1 No such user", or nodemailer refused the recipient
 * before connecting. 4xx replies ("451 try again later"), timeouts and
 * network errors are temporary. So are 5xx replies about the connection or
 * the login (a wrong password, a server that refuses us): those are the
 * shop's configuration, not this email, and a fixed configuration should
 * still send the queued emails.
 */
export function isPermanentFailure(error: unknown) {
  if (!(error instanceof Error)) return false;
  const { code, command, responseCode } = error as SmtpError;
  if (code !== "EENVELOPE" && code !== "EMESSAGE") return false;
  if (typeof responseCode === "number") return responseCode >= 500 && responseCode < 600;
  return command === "API" && /^(Invalid recipient|No recipients defined)/.test(error.message);
}
