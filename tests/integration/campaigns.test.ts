import { generateKeyPairSync, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { CampaignJson } from "~/lib/campaigns";
import { runCampaigns, NO_POSTAL_ADDRESS } from "~/models/campaigns.server";
import { changeCatalog } from "~/models/catalog.server";
import { subscribe } from "~/models/newsletter.server";
import { action as unsubscribeAction } from "~/routes/unsubscribe";
import { createMailer } from "~/services/mailer.server";
import { drainOutbox, processOutbox } from "~/services/outbox.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { callFunction, callRoute, formRequest, functionHandler, readJson, signedInAdmin, uniqueEmail, type ErrorJson } from "../utils";
import { startSmtpServer, type TestSmtpServer } from "./smtp";

/**
 * The owner's campaigns to the family list (issue 40, decision 101), through
 * the functions, the outbox and a real SMTP server on 127.0.0.1. Each test
 * starts with an empty list, outbox and mailbox. The 2,000-address send from
 * two instances is tests/cluster/campaign.test.ts.
 */

const POSTAL = "Chill PB, 1234 Abbot Kinney Blvd, Venice, CA 90291";
const PRODUCT = "bar-chocolate-pb";

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;
let smtp: TestSmtpServer;
let mailer: ReturnType<typeof createMailer>;

beforeAll(async () => {
  owner = await signedInAdmin("campaign-owner");
  staff = await signedInAdmin("campaign-staff", "staff");
  smtp = await startSmtpServer();
  mailer = createMailer(smtp.url);
});
afterAll(async () => {
  mailer.close?.();
  await smtp.close();
});
beforeEach(async () => {
  await db.outboxMessage.deleteMany();
  await db.campaign.deleteMany();
  await db.subscriber.deleteMany();
  smtp.received.length = 0;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await changeCatalog((tx) => tx.shopSettings.deleteMany());
});

const asOwner = (name: Parameters<typeof callFunction>[0], body: unknown) => callFunction(name, body, { cookie: owner.cookie });

async function setPostalAddress(postalAddress: string | null) {
  const settings = await readJson<Record<string, unknown>>(await asOwner("get-settings", {}));
  const saved = await asOwner("save-settings", { ...settings, postalAddress });
  expect(saved.status).toBe(200);
  return readJson<{ postalAddress: string | null }>(saved);
}

/** `count` subscribers, as the sign-up stores them (their welcome emails cleared). */
async function subscribers(count: number) {
  const emails = Array.from({ length: count }, () => uniqueEmail("fan"));
  for (const email of emails) await subscribe(email, "http://shop.test");
  await db.outboxMessage.deleteMany();
  return emails;
}

async function draft(fields: Record<string, unknown> = {}) {
  const response = await asOwner("save-campaign", {
    subject: "Meet Maple Pecan",
    preheader: "Fresh from the kitchen",
    body: "Our newest bar is **Maple Pecan**.\n\n- Organic peanut butter\n- Real maple\n\nSee [the shop](https://chillpb.example/shop).",
    productIds: [PRODUCT],
    discountCode: "WELCOME10",
    ...fields,
  });
  expect(response.status).toBe(201);
  return (await readJson<{ campaign: CampaignJson }>(response)).campaign;
}

async function campaign(id: string) {
  const { campaigns } = await readJson<{ campaigns: CampaignJson[] }>(await asOwner("get-campaigns", { id }));
  return campaigns[0]!;
}

const drain = (workerId = "worker-1") => drainOutbox({ mailer, workerId });

describe("writing a campaign", () => {
  it("saves a draft, and refuses unknown products and codes, a subject of two lines, and staff", async () => {
    const saved = await draft();
    expect(saved).toMatchObject({ status: "draft", subject: "Meet Maple Pecan", productIds: [PRODUCT], discountCode: "WELCOME10", createdBy: owner.email });
    expect(saved.counts).toEqual({ recipients: 0, sent: 0, failed: 0, waiting: 0, unsubscribed: 0 });

    const updated = await asOwner("save-campaign", { id: saved.id, subject: "Maple Pecan is here", body: "Hello", discountCode: "welcome10" });
    expect(updated.status).toBe(200);
    expect((await readJson<{ campaign: CampaignJson }>(updated)).campaign).toMatchObject({
      subject: "Maple Pecan is here",
      productIds: [],
      discountCode: "WELCOME10",
    });

    const refused = await asOwner("save-campaign", { subject: "x", body: "y", productIds: ["no-such-bar"], discountCode: "NOPE" });
    expect(refused.status).toBe(400);
    const { fieldErrors } = await readJson<{ fieldErrors: Record<string, string> }>(refused);
    expect(fieldErrors).toEqual({ productIds: "Not in the shop: no-such-bar", discountCode: "No such code" });

    const header = await asOwner("save-campaign", { subject: "Hi\r\nBcc: everyone@example.com", body: "y" });
    expect(header.status).toBe(400);
    expect((await readJson<{ fieldErrors: Record<string, string> }>(header)).fieldErrors.subject).toBe("The subject is one line");

    expect((await callFunction("save-campaign", { subject: "x", body: "y" }, { cookie: staff.cookie })).status).toBe(403);
    expect((await callFunction("get-campaigns", {}, { cookie: staff.cookie })).status).toBe(403);
  });

  it("previews a draft and a saved campaign as a subscriber gets it: the words, the product card, the code, the postal address", async () => {
    await setPostalAddress(POSTAL);
    const saved = await draft();
    for (const body of [
      { id: saved.id },
      { subject: "Meet Maple Pecan", body: "Our newest bar is **Maple Pecan**.", productIds: [PRODUCT], discountCode: "WELCOME10" },
    ]) {
      const response = await asOwner("preview-campaign", body);
      expect(response.status).toBe(200);
      const preview = await readJson<{ subject: string; html: string; text: string }>(response);
      expect(preview.subject).toBe("Meet Maple Pecan");
      for (const part of [preview.html, preview.text]) {
        expect(part).toContain("Maple Pecan");
        expect(part).toContain("Chocolate");
        expect(part).toContain("WELCOME10");
        expect(part).toContain("Abbot Kinney");
        expect(part).toContain("/unsubscribe?token=preview");
      }
    }
    expect((await asOwner("preview-campaign", { id: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f" })).status).toBe(404);
  });

  it("sends a test copy, marked as one, to the address asked and no one else", async () => {
    await subscribers(3);
    const saved = await draft();
    const response = await asOwner("send-test-campaign", { id: saved.id, email: "owner@chillpb.example" });
    expect(response.status).toBe(200);
    await drain();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.envelope.to).toEqual(["owner@chillpb.example"]);
    expect(smtp.received[0]!.subject).toBe("[Test] Meet Maple Pecan");
    expect((await campaign(saved.id)).status).toBe("draft");
  });
});

describe("sending a campaign", () => {
  it("is refused without the shop's postal address, and with an empty list", async () => {
    const saved = await draft();
    const noAddress = await asOwner("send-campaign", { id: saved.id });
    expect(noAddress.status).toBe(409);
    expect((await readJson<ErrorJson>(noAddress)).error).toBe(NO_POSTAL_ADDRESS);
    await setPostalAddress(POSTAL);
    const nobody = await asOwner("send-campaign", { id: saved.id });
    expect(nobody.status).toBe(409);
    expect((await readJson<ErrorJson>(nobody)).error).toBe("Nobody is subscribed to the list yet.");
  });

  it("goes once to each address subscribed when it starts, not to one who left, and cannot be sent or edited again", async () => {
    await setPostalAddress(POSTAL);
    const [left, ...staying] = await subscribers(4);
    const leaver = await db.subscriber.findFirstOrThrow({ where: { email: left } });
    await callRoute(unsubscribeAction, formRequest(`/unsubscribe?token=${leaver.unsubscribeToken}`, { "List-Unsubscribe": "One-Click" }));
    const saved = await draft();

    const sent = await asOwner("send-campaign", { id: saved.id });
    expect(sent.status).toBe(200);
    expect((await readJson<{ campaign: CampaignJson }>(sent)).campaign).toMatchObject({ status: "sending", counts: { recipients: 3, waiting: 3 } });
    expect((await asOwner("send-campaign", { id: saved.id })).status).toBe(409);
    expect((await asOwner("save-campaign", { id: saved.id, subject: "Changed", body: "Changed" })).status).toBe(409);
    // Its cards' pictures as every mail client shows them: JPEG, not the artwork's SVG (decision 102).
    const { content } = await db.campaign.findUniqueOrThrow({ where: { id: saved.id }, select: { content: true } });
    expect(content).toMatchObject({
      products: [{ id: PRODUCT, imageUrl: expect.stringMatching(/^http:\/\/shop\.test\/email-images\/bar-chocolate-pb\.[0-9a-f]{10}\.jpg$/) }],
    });

    // Two workers at once, as two instances: one copy each all the same.
    await Promise.all([drain("worker-1"), drain("worker-2")]);
    expect(smtp.received.map((email) => email.envelope.to[0]).sort()).toEqual([...staying].sort());
    const copy = smtp.received[0]!;
    const token = (await db.subscriber.findFirstOrThrow({ where: { email: copy.envelope.to[0] } })).unsubscribeToken;
    expect(copy.header("list-unsubscribe")).toBe(`<http://shop.test/unsubscribe?token=${token}>, <mailto:hello@chillpb.example?subject=Unsubscribe>`);
    expect(copy.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(copy.text).toContain(POSTAL);

    // Read once nothing is left to go, it is sent, with the time it finished, before the job has looked.
    const finished = await campaign(saved.id);
    expect(finished).toMatchObject({ status: "sent", counts: { recipients: 3, sent: 3, failed: 0, waiting: 0, unsubscribed: 0 } });
    expect(finished.finishedAt).not.toBeNull();
  });

  it("keeps the shop's own emails first: a welcome queued after a campaign goes out before the campaign's copies", async () => {
    await setPostalAddress(POSTAL);
    await subscribers(12);
    const saved = await draft();
    expect((await asOwner("send-campaign", { id: saved.id })).status).toBe(200);
    await subscribe(uniqueEmail("newcomer"), "http://shop.test");
    await processOutbox({ mailer, workerId: "worker-1", limit: 1, concurrency: 1 });
    expect(smtp.received.map((email) => email.subject)).toEqual(["Welcome to Chill PB: here's 10% off"]);
  });

  it("sends nothing more to an address that unsubscribes while it sends, and counts it", async () => {
    await setPostalAddress(POSTAL);
    const emails = await subscribers(5);
    const saved = await draft();
    expect((await asOwner("send-campaign", { id: saved.id })).status).toBe(200);
    await processOutbox({ mailer, workerId: "worker-1", limit: 2, concurrency: 1 });
    const gone = new Set(smtp.received.map((email) => email.envelope.to[0]));
    const leaving = emails.find((email) => !gone.has(email))!;
    const { unsubscribeToken } = await db.subscriber.findFirstOrThrow({ where: { email: leaving } });
    // A mail provider's one-click POST, from its own site.
    const response = await callRoute(
      unsubscribeAction,
      formRequest(
        `/unsubscribe?token=${unsubscribeToken}`,
        { "List-Unsubscribe": "One-Click" },
        { origin: "https://mail.provider.example", headers: { "Sec-Fetch-Site": "cross-site" } },
      ),
    );
    expect(response.status).toBe(200);
    await drain();
    expect(smtp.to(leaving)).toHaveLength(0);
    expect(smtp.received).toHaveLength(4);
    expect((await campaign(saved.id)).counts).toEqual({ recipients: 5, sent: 4, failed: 0, waiting: 0, unsubscribed: 1 });
  });

  it("a campaign's copy is not resent by hand from the System page", async () => {
    await setPostalAddress(POSTAL);
    await subscribers(1);
    const saved = await draft();
    expect((await asOwner("send-campaign", { id: saved.id })).status).toBe(200);
    await drain();
    const copy = await db.outboxMessage.findFirstOrThrow({ where: { campaignId: saved.id } });
    const resent = await asOwner("resend-email", { id: copy.id });
    expect(resent.status).toBe(409);
    expect((await readJson<ErrorJson>(resent)).error).toBe("A campaign's copy is not resent by hand: it was tried as often as any email.");
  });

  it("cancelled while it sends, sends nothing more; a sent one cannot be cancelled", async () => {
    await setPostalAddress(POSTAL);
    await subscribers(6);
    const saved = await draft();
    expect((await asOwner("send-campaign", { id: saved.id })).status).toBe(200);
    await processOutbox({ mailer, workerId: "worker-1", limit: 2, concurrency: 1 });
    const cancelled = await asOwner("cancel-campaign", { id: saved.id });
    expect(cancelled.status).toBe(200);
    expect((await readJson<{ campaign: CampaignJson }>(cancelled)).campaign).toMatchObject({
      status: "cancelled",
      counts: { recipients: 6, sent: 2, waiting: 0 },
    });
    await drain();
    expect(smtp.received).toHaveLength(2);
    expect((await asOwner("cancel-campaign", { id: saved.id })).status).toBe(409);
  });

  it("scheduled for a time in Los Angeles, starts when the job finds it due; a time past is refused", async () => {
    await setPostalAddress(POSTAL);
    await subscribers(2);
    const saved = await draft();
    const scheduled = await asOwner("send-campaign", { id: saved.id, at: "2099-12-10T09:00" });
    expect(scheduled.status).toBe(400);
    const at = new Date(Date.now() + 3 * 24 * 60 * 60_000);
    const local = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Los_Angeles", dateStyle: "short", timeStyle: "short" }).format(at).replace(" ", "T");
    const response = await asOwner("send-campaign", { id: saved.id, at: local });
    expect(response.status).toBe(200);
    const waiting = (await readJson<{ campaign: CampaignJson }>(response)).campaign;
    expect(waiting).toMatchObject({ status: "scheduled", sendAtLocal: local });
    expect(Math.abs(new Date(waiting.sendAt!).getTime() - at.getTime())).toBeLessThan(60_000);

    expect(await runCampaigns(new Date(at.getTime() - 60_000))).toBe("0 campaigns started, 0 finished");
    expect(await db.outboxMessage.count()).toBe(0);
    const due = new Date(at.getTime() + 1_000);
    expect(await runCampaigns(due)).toBe("1 campaigns started, 0 finished");
    expect((await campaign(saved.id)).status).toBe("sending");
    await drainOutbox({ mailer, workerId: "worker-1", now: due });
    expect(smtp.received).toHaveLength(2);
    expect(await runCampaigns(due)).toBe("0 campaigns started, 1 finished");
    expect((await campaign(saved.id)).status).toBe("sent");

    const past = await asOwner("send-campaign", { id: (await draft()).id, at: "2020-01-01T09:00" });
    expect(past.status).toBe(400);
    expect((await readJson<{ fieldErrors: Record<string, string> }>(past)).fieldErrors).toEqual({ at: "That time has passed" });
  });

  it("a scheduled campaign cancelled never starts", async () => {
    await setPostalAddress(POSTAL);
    await subscribers(1);
    const saved = await draft();
    const at = new Date(Date.now() + 60 * 60_000).toISOString();
    expect((await asOwner("send-campaign", { id: saved.id, at })).status).toBe(200);
    expect((await asOwner("cancel-campaign", { id: saved.id })).status).toBe(200);
    expect(await runCampaigns(new Date(Date.now() + 2 * 60 * 60_000))).toBe("0 campaigns started, 0 finished");
    expect((await campaign(saved.id)).status).toBe("cancelled");
  });

  it("forgetting a customer takes them off the list and out of a campaign still sending", async () => {
    await setPostalAddress(POSTAL);
    const [forgotten] = await subscribers(3);
    const saved = await draft();
    expect((await asOwner("send-campaign", { id: saved.id })).status).toBe(200);
    expect((await asOwner("forget-customer", { email: forgotten })).status).toBe(200);
    await drain();
    expect(smtp.to(forgotten!)).toHaveLength(0);
    expect(smtp.received).toHaveLength(2);
    expect(await db.subscriber.count({ where: { email: forgotten } })).toBe(0);
  });
});

describe("the owner takes an address off the list", () => {
  it("in any spelling of the mailbox, with its copies not yet gone; says so when it had left or was never on it", async () => {
    await setPostalAddress(POSTAL);
    const [asked] = await subscribers(2);
    const saved = await draft();
    expect((await asOwner("send-campaign", { id: saved.id })).status).toBe(200);
    const response = await asOwner("unsubscribe-subscriber", { email: asked!.toUpperCase() });
    expect(response.status).toBe(200);
    expect((await readJson<{ message: string }>(response)).message).toBe(`${asked!.toUpperCase()} is off the list: no more newsletters go to it.`);
    await drain();
    expect(smtp.to(asked!)).toHaveLength(0);
    expect(smtp.received).toHaveLength(1);
    expect((await readJson<{ message: string }>(await asOwner("unsubscribe-subscriber", { email: asked }))).message).toBe(
      `${asked} had already left the list.`,
    );
    expect((await asOwner("unsubscribe-subscriber", { email: "never@example.com" })).status).toBe(404);
    expect((await callFunction("unsubscribe-subscriber", { email: asked }, { cookie: staff.cookie })).status).toBe(403);
  });
});

describe("the postal address", () => {
  it("is saved with the settings, kept when left out, cleared by an empty one, and at most 300 characters", async () => {
    expect((await setPostalAddress(`  ${POSTAL}  `)).postalAddress).toBe(POSTAL);
    const settings = await readJson<Record<string, unknown>>(await asOwner("get-settings", {}));
    const { postalAddress: _kept, ...withoutIt } = settings;
    expect((await readJson<{ postalAddress: string }>(await asOwner("save-settings", withoutIt))).postalAddress).toBe(POSTAL);
    expect((await setPostalAddress("")).postalAddress).toBeNull();
    const long = await asOwner("save-settings", { ...settings, postalAddress: "x".repeat(301) });
    expect(long.status).toBe(400);
  });
});

describe("importing a list", () => {
  const importCsv = (csv: string, cookie = owner.cookie) => {
    const form = new FormData();
    form.set("file", new Blob([csv], { type: "text/csv" }), "list.csv");
    return callRoute(
      functionHandler("import-subscribers"),
      new Request("http://shop.test/functions/v1/import-subscribers", { method: "POST", headers: { Cookie: cookie }, body: form }),
    );
  };

  it("adds only the addresses with consent, with where and when, never signs a leaver up again, and reports each refusal", async () => {
    const [already, leaver] = await subscribers(2);
    const left = await db.subscriber.findFirstOrThrow({ where: { email: leaver } });
    await callRoute(unsubscribeAction, formRequest(`/unsubscribe?token=${left.unsubscribeToken}`, { token: left.unsubscribeToken }));
    const csv = [
      "Email,Consent,Consented at,Note",
      "market@example.com,yes,2026-03-01,Farmers market sign-up sheet",
      `${already},yes,,`,
      `${leaver},yes,,`,
      "nobody@example.com,no,,",
      "blank@example.com,,,",
      "not an email,yes,,",
      "dated@example.com,2026-05-02,,",
      "Market@Example.com,yes,,",
      "future@example.com,yes,2999-01-01,",
    ].join("\r\n");
    const response = await importCsv(csv);
    expect(response.status).toBe(200);
    const report = await readJson<{
      added: number;
      alreadySubscribed: number;
      refusedTotal: number;
      refused: { line: number; email: string; reason: string }[];
    }>(response);
    expect(report).toEqual({
      added: 2,
      alreadySubscribed: 1,
      refusedTotal: 6,
      refused: [
        { line: 4, email: leaver, reason: expect.stringMatching(/^Unsubscribed on .+: an import does not sign them up again$/) as string },
        { line: 5, email: "nobody@example.com", reason: 'No consent: "no" is not yes or a date' },
        { line: 6, email: "blank@example.com", reason: "No consent recorded" },
        { line: 7, email: "not an email", reason: "Not an email address" },
        { line: 9, email: "Market@Example.com", reason: "Already earlier in the file" },
        { line: 10, email: "future@example.com", reason: '"2999-01-01" is not a date such as 2026-03-01' },
      ],
    });
    const market = await db.subscriber.findFirstOrThrow({ where: { email: "market@example.com" } });
    expect(market).toMatchObject({ source: "import", consentNote: "Farmers market sign-up sheet", unsubscribedAt: null });
    expect(market.consentAt.toISOString()).toBe("2026-03-01T12:00:00.000Z");
    expect((await db.subscriber.findFirstOrThrow({ where: { email: "dated@example.com" } })).consentAt.toISOString()).toBe("2026-05-02T12:00:00.000Z");
    expect((await db.subscriber.findFirstOrThrow({ where: { email: leaver } })).unsubscribedAt).not.toBeNull();
    // Nobody imported is sent a welcome.
    expect(await db.outboxMessage.count()).toBe(0);
  });

  it("refuses a file without the columns it needs, and staff", async () => {
    const response = await importCsv("address,name\nx@example.com,X\n");
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toMatch(/"email" and "consent"/);
    expect((await importCsv("email,consent\nx@example.com,yes\n", staff.cookie)).status).toBe(403);
  });
});

describe("signing", () => {
  it("signs every email with DKIM for MAIL_FROM's domain once DKIM_PRIVATE_KEY and DKIM_SELECTOR are set", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const saved = { key: env.DKIM_PRIVATE_KEY, selector: env.DKIM_SELECTOR };
    env.DKIM_PRIVATE_KEY = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    env.DKIM_SELECTOR = "chillpb2026";
    try {
      const signing = createMailer(smtp.url);
      await signing.send({
        id: randomBytes(8).toString("hex"),
        to: "someone@example.com",
        subject: "Signed",
        text: "Hello",
        html: "<p>Hello</p>",
        unsubscribeUrl: null,
      });
      signing.close?.();
    } finally {
      env.DKIM_PRIVATE_KEY = saved.key;
      env.DKIM_SELECTOR = saved.selector;
    }
    const signature = smtp.received[0]!.header("dkim-signature");
    expect(signature).toMatch(/\bd=chillpb\.example;/);
    expect(signature).toMatch(/\bs=chillpb2026;/);
    expect(signature).toMatch(/\ba=rsa-sha256;/);
  });
});
