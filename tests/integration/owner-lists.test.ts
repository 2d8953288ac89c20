import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { csvField, csvLine } from "~/models/owner-lists.server";
import type { InquiryRow, SubscriberRow } from "~/lib/owner-lists";
import { db } from "~/utils/db.server";
import { callFunction, readJson, signedInAdmin, type ErrorJson, type FunctionName } from "../utils";

/**
 * The owner's lists (decision 022): subscribers and partnership inquiries,
 * searchable, and each exportable as a streamed CSV file. Owners only.
 */

type SubscribersJson = { subscribers: SubscriberRow[]; total: number; page: number; pageSize: number };
type InquiriesJson = { inquiries: InquiryRow[]; total: number; page: number; pageSize: number };

const LISTS: FunctionName[] = ["get-subscribers", "get-inquiries", "export-subscribers", "export-inquiries"];

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;
const tag = `t${randomUUID().slice(0, 8)}`;

async function addSubscriber(email: string, { unsubscribed = false, at = new Date() } = {}) {
  return db.subscriber.create({
    data: {
      email,
      mailbox: `${email.toLowerCase()}#${randomUUID()}`,
      unsubscribeToken: randomUUID(),
      createdAt: at,
      unsubscribedAt: unsubscribed ? at : null,
    },
  });
}

async function asOwner(name: FunctionName, body: unknown) {
  return callFunction(name, body, { cookie: owner.cookie });
}

beforeAll(async () => {
  owner = await signedInAdmin("owner", "owner");
  staff = await signedInAdmin("staff", "staff");
  const base = Date.now() - 60_000;
  await addSubscriber(`Ana.${tag}@Example.com`, { at: new Date(base + 1000) });
  await addSubscriber(`ben.${tag}@example.com`, { at: new Date(base + 2000), unsubscribed: true });
  await addSubscriber(`cy.${tag}@example.org`, { at: new Date(base + 3000) });
  await db.partnershipInquiry.createMany({
    data: [
      {
        name: `Dana ${tag}`,
        email: "dana@cafe.example",
        business: "Sunny Cafe, Venice",
        message: "We'd love to stock your bars.",
        createdAt: new Date(base + 1000),
      },
      {
        name: "Eli",
        email: `eli.${tag}@gym.example`,
        business: null,
        message: `=HYPERLINK("http://evil.example") "quoted"\nsecond line ${tag}`,
        createdAt: new Date(base + 2000),
      },
    ],
  });
});

describe("who may read the lists", () => {
  it("answers 401 without a session", async () => {
    for (const name of LISTS) {
      const response = await callFunction(name, {});
      expect(response.status, name).toBe(401);
      expect(await readJson<ErrorJson>(response), name).toEqual({ error: "Please sign in." });
    }
  });

  it("answers 403 to staff", async () => {
    for (const name of LISTS) {
      const response = await callFunction(name, {}, { cookie: staff.cookie });
      expect(response.status, name).toBe(403);
      expect(await readJson<ErrorJson>(response), name).toEqual({ error: "Only the shop's owner can do this." });
    }
  });
});

describe("bad requests", () => {
  it.each([
    ["get-subscribers", { pageSize: 1000 }, /pageSize/],
    ["get-subscribers", { page: 0 }, /page/],
    ["get-subscribers", { status: "bounced" }, /status/],
    ["get-subscribers", { q: "x".repeat(101) }, /q/],
    ["get-subscribers", { where: {} }, /unrecognized/i],
    ["get-inquiries", { pageSize: "10" }, /pageSize/],
    ["get-inquiries", { status: "subscribed" }, /unrecognized/i],
    ["export-subscribers", { page: 2 }, /unrecognized/i],
    ["export-subscribers", { status: 1 }, /status/],
    ["export-inquiries", { q: 5 }, /q/],
    ["get-inquiries", "{oops", /JSON/],
  ] as const)("%s refuses %j with a 400", async (name, body, message) => {
    const response = await asOwner(name, body);
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toMatch(message);
  });
});

describe("subscribers", () => {
  it("searches by email whatever the case, newest first, unsubscribed ones marked", async () => {
    const response = await asOwner("get-subscribers", { q: tag.toUpperCase() });
    expect(response.status).toBe(200);
    const body = await readJson<SubscribersJson>(response);
    expect(body.total).toBe(3);
    expect(body.subscribers.map((row) => row.email)).toEqual([`cy.${tag}@example.org`, `ben.${tag}@example.com`, `Ana.${tag}@Example.com`]);
    expect(body.subscribers.map((row) => row.unsubscribedAt === null)).toEqual([true, false, true]);
  });

  it("reads LIKE's wildcards in a search as the characters they are", async () => {
    const wild = `w${randomUUID().slice(0, 6)}`;
    for (const email of [`${wild}_a@example.com`, `${wild}xa@example.com`, `${wild}%b@example.com`, `${wild}yyb@example.com`]) {
      await db.subscriber.create({ data: { email, mailbox: email.toLowerCase(), unsubscribeToken: randomUUID() } });
    }
    const found = async (q: string) => (await readJson<SubscribersJson>(await asOwner("get-subscribers", { q }))).subscribers.map((row) => row.email);
    expect(await found(`${wild}_a`)).toEqual([`${wild}_a@example.com`]);
    expect(await found(`${wild}%b`)).toEqual([`${wild}%b@example.com`]);
    expect(await found(`${wild}\\`)).toEqual([]);
  });

  it("filters by status and pages", async () => {
    const unsubscribed = await readJson<SubscribersJson>(await asOwner("get-subscribers", { q: tag, status: "unsubscribed" }));
    expect(unsubscribed.subscribers.map((row) => row.email)).toEqual([`ben.${tag}@example.com`]);
    const subscribed = await readJson<SubscribersJson>(await asOwner("get-subscribers", { q: tag, status: "subscribed", pageSize: 1, page: 2 }));
    expect(subscribed).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(subscribed.subscribers.map((row) => row.email)).toEqual([`Ana.${tag}@Example.com`]);
  });

  it("takes a POST with no body: the first page of everyone", async () => {
    const response = await callFunction("get-subscribers", "", { cookie: owner.cookie, contentType: "application/json" });
    expect(response.status).toBe(200);
    expect((await readJson<SubscribersJson>(response)).pageSize).toBe(25);
  });
});

describe("inquiries", () => {
  it("searches name, email, business and message whatever the case", async () => {
    for (const [q, names] of [
      [tag.toUpperCase(), ["Eli", `Dana ${tag}`]],
      ["sunny cafe", [`Dana ${tag}`]],
      [`ELI.${tag}`, ["Eli"]],
    ] as const) {
      const body = await readJson<InquiriesJson>(await asOwner("get-inquiries", { q }));
      expect(
        body.inquiries.map((row) => row.name),
        q,
      ).toEqual(names);
    }
  });
});

describe("CSV exports", () => {
  it("quotes what needs quoting and keeps formulas as text", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(null)).toBe("");
    expect(csvField("Sunny Cafe, Venice")).toBe('"Sunny Cafe, Venice"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("+1 310 555 0100")).toBe("'+1 310 555 0100");
    expect(csvField("@cmd")).toBe("'@cmd");
    expect(csvField("-2")).toBe("'-2");
    expect(csvLine(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });

  it("streams the subscribers matching the filters as a download", async () => {
    const response = await asOwner("export-subscribers", { q: tag, status: "all" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="chillpb-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A UTF-8 byte-order mark first, so Excel reads the file as UTF-8 (text() would drop it).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    // Where and when each gave consent (decision 101): these joined on the form.
    expect(text.startsWith("email,subscribed_at,unsubscribed_at,status,source,consented_at,consent_note\r\n")).toBe(true);
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^cy\\.${tag}@example\\.org,[^,]+,,subscribed,form,[^,]+,$`));
    expect(lines[2]).toMatch(new RegExp(`^ben\\.${tag}@example\\.com,[^,]+,[^,]+,unsubscribed,form,[^,]+,$`));
  });

  it("escapes an inquiry's commas, quotes, line breaks and formulas", async () => {
    const text = await (await asOwner("export-inquiries", { q: `eli.${tag}` })).text();
    expect(text).toContain(`,Eli,eli.${tag}@gym.example,,"'=HYPERLINK(""http://evil.example"") ""quoted""\nsecond line ${tag}"\r\n`);
  });

  it("sends every row exactly once across its batches", async () => {
    const bulk = `bulk${randomUUID().slice(0, 8)}`;
    const at = Date.now() - 3_600_000;
    // 10,003 rows: two whole batches of 5,000 and a part, some sharing a timestamp.
    await db.subscriber.createMany({
      data: Array.from({ length: 10_003 }, (_, index) => ({
        email: `${bulk}-${index}@example.com`,
        mailbox: `${bulk}-${index}@example.com`,
        unsubscribeToken: randomUUID(),
        createdAt: new Date(at + Math.floor(index / 3) * 1000),
      })),
    });
    const text = await (await asOwner("export-subscribers", { q: bulk })).text();
    const emails = text
      .trimEnd()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",")[0]);
    expect(emails).toHaveLength(10_003);
    expect(new Set(emails).size).toBe(10_003);
    // Newest first, and among rows of one second the later id first, as the list pages them.
    const newestFirst = Array.from({ length: 10_003 }, (_, index) => index).sort((a, b) => Math.floor(b / 3) - Math.floor(a / 3));
    expect(emails.map((email) => Math.floor(Number(/-(\d+)@/.exec(email!)?.[1]) / 3))).toEqual(newestFirst.map((index) => Math.floor(index / 3)));
  });
});
