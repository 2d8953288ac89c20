import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import { simpleParser } from "mailparser";
import { westLa } from "./checkout-helpers";

/**
 * Orders and the emails about them, for the order specs. Emails are read back
 * from the .eml files the e2e server's mailer writes (it has no SMTP_URL), as
 * the customer would receive them.
 */

const MAIL_DIRECTORY = path.resolve("var/mail");

export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** A paid order of `email`: simple-checkout, then the demo payment page with the test card. */
export async function paidOrder(request: APIRequestContext, email: string) {
  const placed = await request.post("/functions/v1/simple-checkout", {
    data: { items: [{ product: { id: "bites-variety" }, quantity: 3 }], shipping: { ...westLa, email }, discountCode: null },
  });
  expect(placed.ok()).toBe(true);
  const { url, orderId } = (await placed.json()) as { url: string; orderId: string };
  const paid = await request.post(new URL(url).pathname, { form: { card: "4242 4242 4242 4242" } });
  expect(paid.ok()).toBe(true);
  return { orderId, shortId: orderId.slice(0, 8) };
}

/** Each .eml file as read once, by its name and size (one still being written is read again once it has grown): its recipients, subject and decoded text. */
const readMail = new Map<string, Promise<{ to: string; subject: string; text: string }>>();

async function mailIn(file: string) {
  const where = path.join(MAIL_DIRECTORY, file);
  const key = `${file}:${(await stat(where)).size}`;
  let mail = readMail.get(key);
  if (!mail) {
    mail = readFile(where)
      .then((raw) => simpleParser(raw))
      .then((parsed) => ({
        to: (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).map((address) => address.text).join(", "),
        subject: parsed.subject ?? "",
        text: parsed.text ?? "",
      }));
    readMail.set(key, mail);
  }
  return mail;
}

/**
 * The text of the email to `to` (its recipient, or named in its words, as the
 * kitchen's copy names the customer) whose subject matches, once the outbox
 * worker has sent it. Read decoded: a quoted-printable body may break an
 * address across its lines, so the raw file is never searched.
 */
export async function emailTo(to: string, subject: RegExp) {
  let found: string | undefined;
  await expect(async () => {
    for (const file of (await readdir(MAIL_DIRECTORY).catch(() => [])).filter((name) => name.endsWith(".eml"))) {
      const mail = await mailIn(file);
      if ((mail.to.includes(to) || mail.text.includes(to)) && subject.test(mail.subject)) found = mail.text;
    }
    expect(found, `an email to ${to} matching ${subject}`).toBeDefined();
  }).toPass({ timeout: 20_000 });
  return found!;
}

/** The order page's link in an email: /orders/<id>?token=… */
export function orderPageLink(text: string) {
  const link = /https?:\/\/\S+?(\/orders\/[0-9a-f-]{36}\?token=[\w-]+)/.exec(text)?.[1];
  expect(link, "the email links to the order page").toBeDefined();
  return link!;
}
