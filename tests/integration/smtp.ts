import { createServer, type AddressInfo } from "node:net";
import { simpleParser, type HeaderValue } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 for the outbox tests: it accepts every
 * message (no TLS, no authentication) and keeps what it received, with the
 * SMTP envelope and the message as mailparser reads it (headers, text and
 * HTML parts). Options make it slow (a delay before each message is accepted)
 * or refuse recipients (a 550 or a 451 answer to RCPT TO).
 */

export type ReceivedEmail = {
  /** MAIL FROM and RCPT TO, as the server saw them. */
  envelope: { from: string | null; to: string[] };
  /** The message as sent, CRLF line endings. */
  raw: string;
  /** The top-level header block, one `name: value` line per header, each value as `header` gives it. */
  headerBlock: string;
  /**
   * The first value of a top-level header (case-insensitive name): Subject,
   * Message-ID and the address headers as mailparser decoded them (encoded
   * words included); any other header as it was sent, unfolded.
   */
  header(name: string): string | undefined;
  headerNames: string[];
  subject: string;
  messageId: string | undefined;
  /** The text/plain part, decoded, with \n line endings. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
};

export type TestSmtpServer = {
  port: number;
  url: string;
  received: ReceivedEmail[];
  /** Received messages addressed (in the envelope) to `address`. */
  to(address: string): ReceivedEmail[];
  close(): Promise<void>;
};

export type SmtpReply = { code: number; message: string };

export type TestSmtpServerOptions = {
  /** How long the server takes, after the message's data is in, before it accepts it. */
  delayMs?: number;
  /** A reply that refuses a recipient at RCPT TO, e.g. `{ code: 550, message: "5.1.1 No such user" }`; undefined accepts it. */
  rejectRecipient?: (address: string) => SmtpReply | undefined;
};

/** Starts an SMTP server; port 0 picks a free one. */
export async function startSmtpServer(port = 0, options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedEmail[] = [];
  const delays = new Set<NodeJS.Timeout>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // No reverse DNS lookup of the client: it only slows every connection down.
    disableReverseLookup: true,
    // Let close() finish quickly even if a client is still connected.
    closeTimeout: 1_000,
    onRcptTo(address, _session, callback) {
      const reply = options.rejectRecipient?.(address.address);
      if (!reply) return callback();
      callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const { mailFrom, rcptTo } = session.envelope;
        const envelope = { from: mailFrom ? mailFrom.address : null, to: rcptTo.map((recipient) => recipient.address) };
        parseEmail(Buffer.concat(chunks).toString("utf8"), envelope).then((email) => {
          // A message counts as received once the server accepts it, after the delay.
          const accept = () => {
            received.push(email);
            callback();
          };
          if (!options.delayMs) return accept();
          const timer = setTimeout(() => {
            delays.delete(timer);
            accept();
          }, options.delayMs);
          delays.add(timer);
        }, callback);
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actualPort = (server.server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    received,
    to: (address) => received.filter((email) => email.envelope.to.includes(address)),
    close: () => {
      for (const timer of delays) clearTimeout(timer);
      delays.clear();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 with nothing listening on it (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}

/** A header's value as mailparser decoded it, where it is text: a string, or an address list as text. */
function decodedValue(value: HeaderValue | undefined) {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && "text" in value) return value.text;
  return undefined;
}

/**
 * Reads a message with mailparser. Where mailparser keeps a header as
 * structured data (a date, a content type, the List-* headers, which it folds
 * into one `list` entry, or several values) the tests get it as it was sent.
 */
async function parseEmail(raw: string, envelope: ReceivedEmail["envelope"]): Promise<ReceivedEmail> {
  const parsed = await simpleParser(raw);
  const headers = parsed.headerLines.map(({ key, line }): [name: string, value: string] => {
    const sent = line
      .slice(line.indexOf(":") + 1)
      .replace(/\r?\n(?=[ \t])/g, "")
      .trim();
    return [key, decodedValue(parsed.headers.get(key)) ?? sent];
  });
  const header = (name: string) => headers.find(([key]) => key === name.toLowerCase())?.[1];
  return {
    envelope,
    raw,
    headerBlock: headers.map(([name, value]) => `${name}: ${value}`).join("\n"),
    header,
    headerNames: headers.map(([name]) => name),
    subject: parsed.subject ?? "",
    messageId: parsed.messageId,
    text: (parsed.text ?? "").replace(/\r\n/g, "\n"),
    html: parsed.html || "",
  };
}
