import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { orderConfirmationEmail, welcomeEmail } from "~/services/emails.server";
import { emailCases, paidOrder } from "../../tests/fixtures/emails/cases";

/**
 * The emails' words are held to goldens recorded from the string templates
 * they replaced (tests/fixtures/emails): the subject, addressee and plain-text
 * part byte for byte (no whitespace forgiven), and the HTML part's visible
 * words, whitespace aside: the markup is react-email's now.
 * A deliberate change of words is made by recording again and reviewing the
 * goldens' diff:
 *   RECORD_EMAIL_GOLDENS=1 npx vitest run app/emails/emails.test.ts
 */

const GOLDENS = path.resolve("tests/fixtures/emails");
const recording = process.env.RECORD_EMAIL_GOLDENS === "1";

type Envelope = { kind: string; to: string; subject: string; orderId?: string; unsubscribeUrl?: string };

const BLOCK = /^(p|div|br|hr|h[1-6]|table|tbody|thead|tr|td|th|ul|ol|li|body|html|center|section)$/i;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** What a reader sees of an HTML email, as one line: block elements part words, inline ones (a, span, strong) do not. */
function visibleText(html: string) {
  return html
    .replace(/<!--[\s\S]*?-->|<!doctype[^>]*>/gi, "")
    .replace(/<head[\s\S]*?<\/head>/gi, " ")
    .replace(/<\/?([a-z0-9]+)\b[^>]*>/gi, (_tag, name: string) => (BLOCK.test(name) ? " " : ""))
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
      if (code.startsWith("#x") || code.startsWith("#X")) return String.fromCodePoint(parseInt(code.slice(2), 16));
      if (code.startsWith("#")) return String.fromCodePoint(Number(code.slice(1)));
      return ENTITIES[code.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, " ")
    .trim();
}

const envelopeOf = ({ kind, to, subject, orderId, unsubscribeUrl }: Envelope): Envelope => ({ kind, to, subject, orderId, unsubscribeUrl });
const golden = (file: string) => readFileSync(path.join(GOLDENS, file), "utf8");

describe.runIf(recording)("recording the goldens", () => {
  it("writes every email's envelope, text and HTML", async () => {
    mkdirSync(GOLDENS, { recursive: true });
    const envelopes: Record<string, Envelope> = {};
    for (const [name, build] of Object.entries(emailCases)) {
      const email = await build();
      envelopes[name] = envelopeOf(email);
      writeFileSync(path.join(GOLDENS, `${name}.txt`), email.text);
      writeFileSync(path.join(GOLDENS, `${name}.html`), email.html);
    }
    writeFileSync(path.join(GOLDENS, "envelopes.json"), `${JSON.stringify(envelopes, null, 2)}\n`);
  });
});

describe.skipIf(recording).each(Object.entries(emailCases))("the %s email", (name, build) => {
  it("keeps its kind, addressee, subject and links word for word", async () => {
    const envelopes = JSON.parse(golden("envelopes.json")) as Record<string, Envelope>;
    expect(envelopeOf(await build())).toEqual(envelopes[name]);
  });

  it("keeps its plain-text part byte for byte", async () => {
    expect((await build()).text).toBe(golden(`${name}.txt`));
  });

  it("keeps the visible words of its HTML part", async () => {
    expect(visibleText((await build()).html)).toBe(visibleText(golden(`${name}.html`)));
  });
});

describe.skipIf(recording)("every recorded golden", () => {
  it("has its case, so a removed email is noticed", () => {
    const envelopes = JSON.parse(golden("envelopes.json")) as Record<string, Envelope>;
    expect(Object.keys(envelopes).sort()).toEqual(Object.keys(emailCases).sort());
  });
});

describe("the shop's postal address", () => {
  const postalAddress = "1234 Abbot Kinney Blvd, Venice, CA 90291";

  it("ends an email's text and closes its HTML footer when the owner has set it", async () => {
    const email = await orderConfirmationEmail(paidOrder, { postalAddress });
    expect(email.text).toBe(`${golden("confirmation-discount-day.txt")}\n\nChill PB · ${postalAddress}`);
    expect(visibleText(email.html)).toBe(`${visibleText(golden("confirmation-discount-day.html"))} ${postalAddress}`);
  });

  it("comes after the unsubscribe link in an email to the list", async () => {
    const email = await welcomeEmail("new.friend@example.com", "http://shop.test/unsubscribe?token=abc", { postalAddress });
    expect(email.text).toMatch(
      /\n\nDon't want these emails\? Unsubscribe: http:\/\/shop\.test\/unsubscribe\?token=abc\n\nChill PB · 1234 Abbot Kinney Blvd, Venice, CA 90291$/,
    );
    expect(visibleText(email.html)).toMatch(
      /Don't want these emails\? Unsubscribe\. Chill PB · Los Angeles, CA · hello@chillpb\.example 1234 Abbot Kinney Blvd, Venice, CA 90291$/,
    );
  });
});
