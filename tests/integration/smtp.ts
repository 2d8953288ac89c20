import { createServer, type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 for the outbox tests: it accepts every
 * message (no TLS, no authentication) and keeps what it received, with the
 * SMTP envelope and a minimal MIME reading of the message (headers, text and
 * HTML parts), enough to assert on without a mail parser. Options make it slow
 * (a delay before each message is accepted) or refuse recipients (a 550 or a
 * 451 answer to RCPT TO).
 */

export type ReceivedEmail = {
  /** MAIL FROM and RCPT TO, as the server saw them. */
  envelope: { from: string | null; to: string[] };
  /** The message as sent, CRLF line endings. */
  raw: string;
  /** The top-level header block, unfolded, with encoded words decoded. */
  headerBlock: string;
  /** The first value of a top-level header (case-insensitive name), decoded. */
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
        const email = parseEmail(Buffer.concat(chunks).toString("utf8"), {
          from: mailFrom ? mailFrom.address : null,
          to: rcptTo.map((recipient) => recipient.address),
        });
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

type Part = { headers: [name: string, value: string][]; body: string };

function splitPart(raw: string): Part {
  const end = raw.indexOf("\r\n\r\n");
  const headerText = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? "" : raw.slice(end + 4);
  const headers = headerText
    .replace(/\r\n(?=[ \t])/g, "")
    .split("\r\n")
    .filter((line) => line.includes(":"))
    .map((line): [string, string] => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).trim().toLowerCase(), decodeEncodedWords(line.slice(colon + 1).trim())];
    });
  return { headers, body };
}

function headerOf(part: Part, name: string) {
  return part.headers.find(([key]) => key === name.toLowerCase())?.[1];
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
function decodeEncodedWords(value: string) {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function decodeQuotedPrintable(value: string) {
  const text = value.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const hex = text.slice(index + 1, index + 3);
    if (text[index] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(text[index] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(part: Part) {
  const encoding = (headerOf(part, "content-transfer-encoding") ?? "7bit").toLowerCase();
  const decoded =
    encoding === "base64"
      ? Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(part.body)
        : part.body;
  return decoded.replace(/\r\n/g, "\n");
}

/** Walks multipart bodies and collects the text/plain and text/html leaves. */
function collectLeaves(part: Part, into: { text: string; html: string }) {
  const type = headerOf(part, "content-type") ?? "text/plain";
  if (type.toLowerCase().startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) return;
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith("--")) break;
      collectLeaves(splitPart(section.replace(/^\r\n/, "")), into);
    }
    return;
  }
  if (type.toLowerCase().startsWith("text/html")) into.html += decodeBody(part);
  else if (type.toLowerCase().startsWith("text/plain")) into.text += decodeBody(part);
}

export function parseEmail(raw: string, envelope: ReceivedEmail["envelope"]): ReceivedEmail {
  const top = splitPart(raw);
  const leaves = { text: "", html: "" };
  collectLeaves(top, leaves);
  return {
    envelope,
    raw,
    headerBlock: top.headers.map(([name, value]) => `${name}: ${value}`).join("\n"),
    header: (name) => headerOf(top, name),
    headerNames: top.headers.map(([name]) => name),
    subject: headerOf(top, "subject") ?? "",
    messageId: headerOf(top, "message-id"),
    text: leaves.text,
    html: leaves.html,
  };
}
