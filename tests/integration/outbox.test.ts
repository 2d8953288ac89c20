import { createServer, type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/utils/db.server";
import { shortOrderId } from "~/lib/orders";
import { createMailer, type Mailer } from "~/services/mailer.server";
import { unsubscribe, subscribe } from "~/models/newsletter.server";
import { markOrderPaid } from "~/models/orders.server";
import { backoffMs, drainOutbox, MAX_ATTEMPTS, processOutbox } from "~/services/outbox.server";
import { submitInquiry } from "~/models/partnership.server";
import { action as unsubscribeAction } from "~/routes/unsubscribe";
import { callFunction, callRoute, formRequest, placeOrder, readJson, uniqueEmail, type OkJson } from "../utils";
import { closedPort, startSmtpServer, type ReceivedEmail, type TestSmtpServer } from "./smtp";

/**
 * The outbox against a real SMTP server on 127.0.0.1: what each email looks
 * like when it arrives, retries while the server is down or answers "try
 * later", giving up at once on a permanent refusal, and several workers
 * sharing one database without sending anything twice, even when the server
 * is slow.
 */

const TEAM_EMAIL = "hello@chillpb.example";
const KITCHEN_EMAIL = "kitchen@chillpb.test";
const SECOND = 1_000;

let smtp: TestSmtpServer;
let mailer: ReturnType<typeof createMailer>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  mailer = createMailer(smtp.url);
});
afterAll(async () => {
  await smtp.close();
});

// Each test starts with an empty outbox and an empty mailbox.
beforeEach(async () => {
  await db.outboxMessage.deleteMany();
  smtp.received.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The outbox logs each failed attempt; keep the output quiet and return what it said. */
function silenceErrorLog() {
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  return () => spy.mock.calls.map((args) => args.map(String).join(" "));
}

function outboxRows() {
  return db.outboxMessage.findMany({ orderBy: { createdAt: "asc" } });
}

function onlyOne(emails: ReceivedEmail[], what: string) {
  expect(emails, what).toHaveLength(1);
  return emails[0]!;
}

/** Each received message's Message-ID, which the mailer derives from the outbox row id. */
function receivedRowIds() {
  return smtp.received.map((email) => /^<(.+)@chillpb\.mail>$/.exec(email.messageId ?? "")?.[1]);
}

describe("the newsletter welcome email", () => {
  it("arrives once, with WELCOME10 and a one-click unsubscribe link for this subscriber", async () => {
    const email = uniqueEmail("subscriber");
    const response = await callFunction("send-welcome-email", { email });
    expect(response.status).toBe(200);
    expect(await readJson<OkJson>(response)).toEqual({ ok: true });

    expect(await processOutbox({ mailer, workerId: "worker-1" })).toEqual({ sent: 1, failed: 0 });
    const welcome = onlyOne(smtp.received, "one welcome email");
    expect(welcome.envelope).toEqual({ from: TEAM_EMAIL, to: [email] });
    expect(welcome.header("to")).toBe(email);
    expect(welcome.header("from")).toContain(TEAM_EMAIL);
    expect(welcome.subject).toContain("Welcome");
    expect(welcome.text).toContain("WELCOME10");
    expect(welcome.html).toContain("WELCOME10");

    const subscriber = await db.subscriber.findFirstOrThrow({ where: { email } });
    const unsubscribeUrl = `http://shop.test/unsubscribe?token=${subscriber.unsubscribeToken}`;
    expect(welcome.header("list-unsubscribe")).toBe(`<${unsubscribeUrl}>, <mailto:hello@chillpb.example?subject=Unsubscribe>`);
    expect(welcome.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(welcome.text).toContain(unsubscribeUrl);
    expect(welcome.html).toContain(unsubscribeUrl);

    const [row] = await outboxRows();
    expect(row).toMatchObject({ kind: "newsletter-welcome", status: "sent", attempts: 1, lastError: null, unsubscribeUrl });
    expect(welcome.messageId).toBe(`<${row!.id}@chillpb.mail>`);
  });

  it("a second sign-up of the same address is not an error and sends nothing more", async () => {
    const email = uniqueEmail("twice");
    expect((await callFunction("send-welcome-email", { email })).status).toBe(200);
    await processOutbox({ mailer, workerId: "worker-1" });
    expect(smtp.to(email)).toHaveLength(1);

    // The same person, typed differently.
    const again = await callFunction("send-welcome-email", { email: `  ${email.toUpperCase()} ` });
    expect(again.status).toBe(200);
    expect(await readJson<OkJson>(again)).toEqual({ ok: true });
    expect(await processOutbox({ mailer, workerId: "worker-1" })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.to(email)).toHaveLength(1);
    expect(await db.subscriber.count({ where: { email } })).toBe(1);
    expect(await db.outboxMessage.count({ where: { to: email } })).toBe(1);
  });

  it("unsubscribe(token) unsubscribes once; signing up again re-subscribes without another welcome", async () => {
    const email = uniqueEmail("leaver");
    await subscribe(email, "http://shop.test");
    await processOutbox({ mailer, workerId: "worker-1" });
    const token = /token=([^>\s]+)/.exec(onlyOne(smtp.to(email), "welcome").header("list-unsubscribe") ?? "")?.[1];
    expect(token).toBeTruthy();

    expect(await unsubscribe(token!)).toBe(true);
    expect((await db.subscriber.findFirstOrThrow({ where: { email } })).unsubscribedAt).toBeInstanceOf(Date);
    expect(await unsubscribe(token!), "a second click changes nothing").toBe(false);
    expect(await unsubscribe("not-a-token")).toBe(false);

    expect(await subscribe(email, "http://shop.test")).toEqual({ created: false });
    expect((await db.subscriber.findFirstOrThrow({ where: { email } })).unsubscribedAt).toBeNull();
    expect(await processOutbox({ mailer, workerId: "worker-1" })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.to(email)).toHaveLength(1);
  });

  it("the List-Unsubscribe link works as a one-click unsubscribe (RFC 8058 POST)", async () => {
    const email = uniqueEmail("one-click");
    await subscribe(email, "http://shop.test");
    await processOutbox({ mailer, workerId: "worker-1" });
    // The https link first, then the mailto (RFC 2369).
    const link = /^<([^>]+)>, <mailto:[^>]+>$/.exec(onlyOne(smtp.to(email), "welcome").header("list-unsubscribe") ?? "")?.[1];
    expect(link).toMatch(/^http:\/\/shop\.test\/unsubscribe\?token=/);

    // What a mail program sends: a POST to the link, with no Origin.
    const post = () => callRoute(unsubscribeAction, formRequest(link!, { "List-Unsubscribe": "One-Click" }), { clientAddress: "192.0.2.25" });
    const response = await post();
    expect(response.status).toBe(200);
    expect(await readJson<{ done: boolean }>(response)).toEqual({ done: true });
    expect((await db.subscriber.findFirstOrThrow({ where: { email } })).unsubscribedAt).toBeInstanceOf(Date);
    expect((await post()).status, "a repeated click still answers").toBe(200);
  });
});

describe("the partnership inquiry email", () => {
  it("arrives at the team address with the inquirer's details in the body and none in the headers", async () => {
    const inquiry = {
      name: "Dana Whitfield",
      email: uniqueEmail("dana"),
      business: "Sunset Juice Bar",
      message: "We'd love to stock your bites.\nTwo stores in Venice <and> Santa Monica.",
    };
    const response = await callFunction("send-partnership-inquiry", inquiry);
    expect(response.status).toBe(200);

    expect(await processOutbox({ mailer, workerId: "worker-1" })).toEqual({ sent: 1, failed: 0 });
    const received = onlyOne(smtp.received, "one inquiry email");
    expect(received.envelope).toEqual({ from: TEAM_EMAIL, to: [TEAM_EMAIL] });
    expect(received.header("to")).toBe(TEAM_EMAIL);

    for (const detail of [inquiry.name, inquiry.email, inquiry.business, "We'd love to stock your bites.", "Two stores in Venice <and> Santa Monica."]) {
      expect(received.text, detail).toContain(detail);
    }
    // The HTML part escapes the visitor's words.
    expect(received.html).toContain("Venice &lt;and&gt; Santa Monica");
    expect(received.html).not.toContain("<and>");

    expect(received.headerNames).not.toContain("reply-to");
    expect(received.subject).not.toContain("Dana");
    const headers = received.headerBlock.toLowerCase();
    for (const detail of ["dana", "whitfield", inquiry.email, "sunset", "venice"]) {
      expect(headers, `headers mention "${detail}"`).not.toContain(detail.toLowerCase());
    }
  });
});

describe("the order emails", () => {
  it("markOrderPaid → a confirmation to the customer and the fulfilment email to the kitchen; chefNotified once sent", async () => {
    const email = uniqueEmail("buyer");
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]], { email });
    expect(await markOrderPaid(orderId, sessionId)).toBe(true);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).chefNotified).toBe(false);

    expect(await processOutbox({ mailer, workerId: "worker-1" })).toEqual({ sent: 2, failed: 0 });
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    expect(order.chefNotified).toBe(true);
    const [item] = order.items;

    const confirmation = onlyOne(smtp.to(email), "one confirmation");
    expect(confirmation.envelope.to).toEqual([email]);
    expect(confirmation.subject).toContain(shortOrderId(orderId));
    expect(confirmation.text).toContain(`3 × ${item!.name}`);
    expect(confirmation.text).toContain("11600 Wilshire Blvd, Los Angeles, CA 90025");
    expect(confirmation.headerNames, "a transactional email has no unsubscribe link").not.toContain("list-unsubscribe");

    const fulfilment = onlyOne(smtp.to(KITCHEN_EMAIL), "one fulfilment email");
    expect(fulfilment.envelope).toEqual({ from: TEAM_EMAIL, to: [KITCHEN_EMAIL] });
    expect(fulfilment.subject).toContain(shortOrderId(orderId));
    for (const detail of ["Jamie Rivera", email, "310-555-0100", "11600 Wilshire Blvd, Los Angeles, CA 90025", `3 × ${item!.name}`, orderId]) {
      expect(fulfilment.text, detail).toContain(detail);
    }
    expect(fulfilment.html).toContain("Jamie Rivera");

    const rows = await db.outboxMessage.findMany({ where: { orderId }, orderBy: { kind: "asc" } });
    expect(rows.map((row) => [row.kind, row.status, row.attempts])).toEqual([
      ["order-confirmation", "sent", 1],
      ["order-fulfilment", "sent", 1],
    ]);
    for (const row of rows) expect(row.sentAt).toBeInstanceOf(Date);

    // Nothing is sent twice.
    expect(await processOutbox({ mailer, workerId: "worker-1" })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(2);
  });
});

describe("when the SMTP server is down", () => {
  it("gives up on a server that never greets after the mailer's greeting timeout, not nodemailer's own 30 s", async () => {
    // A server that takes the connection and says nothing. nodemailer takes a transport's options from its URL alone
    // when given one: the timeouts were ignored until they went into the URL (decision 101).
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const slowMailer = createMailer(`smtp://127.0.0.1:${port}`, { greetingMs: 300 });
    const started = Date.now();
    try {
      await expect(slowMailer.send({ id: "timeout", to: "a@example.com", subject: "x", text: "x", html: "x", unsubscribeUrl: null })).rejects.toThrow(
        /greeting/i,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      slowMailer.close?.();
      silent.close();
    }
  });

  it("keeps the emails, retries after the backoff, and sends each exactly once when the server is back", async () => {
    const errors = silenceErrorLog();
    const port = await closedPort();
    const downMailer = createMailer(`smtp://127.0.0.1:${port}`);

    const email = uniqueEmail("patient");
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]], { email });
    await markOrderPaid(orderId, sessionId);
    await subscribe(uniqueEmail("patient-subscriber"), "http://shop.test");
    await submitInquiry({ name: "Pat", email: uniqueEmail("pat"), business: null, message: "Hello" });

    const first = new Date();
    expect(await processOutbox({ mailer: downMailer, workerId: "worker-1", now: first })).toEqual({ sent: 0, failed: 4 });
    const afterFailure = await outboxRows();
    expect(afterFailure).toHaveLength(4);
    for (const row of afterFailure) {
      expect(row).toMatchObject({ status: "pending", attempts: 1, claimedBy: null, claimedUntil: null, sentAt: null });
      expect(row.lastError).toEqual(expect.any(String));
      expect(row.lastError!.length).toBeGreaterThan(0);
      expect(row.nextAttemptAt.getTime()).toBe(first.getTime() + backoffMs(1));
      expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    }
    expect(errors()).toHaveLength(4);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).chefNotified).toBe(false);

    // Before the backoff has passed nothing is tried.
    const early = new Date(first.getTime() + backoffMs(1) - SECOND);
    expect(await processOutbox({ mailer: downMailer, workerId: "worker-1", now: early })).toEqual({ sent: 0, failed: 0 });
    expect((await outboxRows()).map((row) => row.attempts)).toEqual([1, 1, 1, 1]);

    // The server comes back on the same address.
    const revived = await startSmtpServer(port);
    try {
      const due = new Date(first.getTime() + backoffMs(1) + SECOND);
      expect(await processOutbox({ mailer: downMailer, workerId: "worker-1", now: due })).toEqual({ sent: 4, failed: 0 });
      expect(await processOutbox({ mailer: downMailer, workerId: "worker-1", now: new Date(due.getTime() + 3_600 * SECOND) })).toEqual({
        sent: 0,
        failed: 0,
      });

      const rows = await outboxRows();
      expect(rows.map((row) => [row.status, row.attempts, row.lastError])).toEqual(Array(4).fill(["sent", 2, null]));
      const ids = revived.received.map((received) => /^<(.+)@chillpb\.mail>$/.exec(received.messageId ?? "")?.[1]);
      expect(ids.sort()).toEqual(rows.map((row) => row.id).sort());
      expect(revived.to(email)).toHaveLength(1);
      expect(revived.to(KITCHEN_EMAIL)).toHaveLength(1);
      expect(revived.to(TEAM_EMAIL)).toHaveLength(1);
      expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).chefNotified).toBe(true);
    } finally {
      await revived.close();
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts: the row is dead and never tried again`, async () => {
    silenceErrorLog();
    const downMailer = createMailer(`smtp://127.0.0.1:${await closedPort()}`);
    await subscribe(uniqueEmail("unlucky"), "http://shop.test");

    let now = new Date();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await processOutbox({ mailer: downMailer, workerId: "worker-1", now }), `attempt ${attempt}`).toEqual({ sent: 0, failed: 1 });
      const [row] = await outboxRows();
      expect(row!.attempts).toBe(attempt);
      expect(row!.status, `after attempt ${attempt}`).toBe(attempt < MAX_ATTEMPTS ? "pending" : "dead");
      expect(row!.nextAttemptAt.getTime() - now.getTime()).toBe(backoffMs(attempt));
      now = new Date(row!.nextAttemptAt.getTime() + SECOND);
    }

    // Dead is final, even with a working server and a long time later.
    const later = new Date(now.getTime() + 30 * 24 * 3_600 * SECOND);
    expect(await processOutbox({ mailer, workerId: "worker-1", now: later })).toEqual({ sent: 0, failed: 0 });
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "dead", attempts: MAX_ATTEMPTS, sentAt: null });
    expect(row!.lastError).toEqual(expect.any(String));
    expect(smtp.received).toHaveLength(0);
  });

  it("backs off exponentially up to an hour, and keeps trying for hours before giving up", () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffMs(20)).toBe(3_600_000);
    const retryHorizonMs = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, index) => backoffMs(index + 1)).reduce((a, b) => a + b, 0);
    expect(retryHorizonMs).toBeGreaterThan(6 * 60 * 60 * 1000);
  });
});

describe("when the SMTP server refuses an email", () => {
  it("a 550 answer is permanent: the row is dead after one attempt, with the server's answer in lastError", async () => {
    const errors = silenceErrorLog();
    const refusing = await startSmtpServer(0, {
      rejectRecipient: () => ({ code: 550, message: "5.1.1 <nobody@chillpb.test>: Mailbox does not exist" }),
    });
    try {
      await subscribe(uniqueEmail("nobody"), "http://shop.test");
      const now = new Date();
      expect(await processOutbox({ mailer: createMailer(refusing.url), workerId: "worker-1", now })).toEqual({ sent: 0, failed: 1 });

      const [row] = await outboxRows();
      expect(row).toMatchObject({ status: "dead", attempts: 1, claimedBy: null, claimedUntil: null, sentAt: null });
      expect(row!.lastError).toContain("550 5.1.1 <nobody@chillpb.test>: Mailbox does not exist");
      expect(errors()).toEqual([expect.stringContaining("refused permanently, giving up")]);

      // Dead is final: not tried again after any backoff, even by a server that would accept it.
      const later = new Date(now.getTime() + 24 * 3_600 * SECOND);
      expect(await processOutbox({ mailer, workerId: "worker-1", now: later })).toEqual({ sent: 0, failed: 0 });
      expect(refusing.received).toHaveLength(0);
      expect(smtp.received).toHaveLength(0);
    } finally {
      await refusing.close();
    }
  });

  it("an address nodemailer cannot send to is dead after one attempt", async () => {
    silenceErrorLog();
    await db.outboxMessage.create({ data: { kind: "newsletter-welcome", to: "not an address", subject: "Hello", text: "Hi", html: "<p>Hi</p>" } });
    expect(await processOutbox({ mailer, workerId: "worker-1" })).toEqual({ sent: 0, failed: 1 });
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "dead", attempts: 1, lastError: "No recipients defined" });
    expect(smtp.received).toHaveLength(0);
  });

  it("a 451 answer is temporary: the row waits for the backoff and is sent when the server accepts it", async () => {
    const errors = silenceErrorLog();
    let refusals = 0;
    const greylisting = await startSmtpServer(0, {
      rejectRecipient: () => (refusals++ === 0 ? { code: 451, message: "4.7.1 Greylisted, try again later" } : undefined),
    });
    try {
      const email = uniqueEmail("greylisted");
      await subscribe(email, "http://shop.test");
      const greylistedMailer = createMailer(greylisting.url);
      const first = new Date();
      expect(await processOutbox({ mailer: greylistedMailer, workerId: "worker-1", now: first })).toEqual({ sent: 0, failed: 1 });

      const [row] = await outboxRows();
      expect(row).toMatchObject({ status: "pending", attempts: 1, claimedBy: null, claimedUntil: null, sentAt: null });
      expect(row!.lastError).toContain("451 4.7.1 Greylisted, try again later");
      expect(row!.nextAttemptAt.getTime()).toBe(first.getTime() + backoffMs(1));
      expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
      expect(errors()).toEqual([expect.not.stringContaining("giving up")]);

      const due = new Date(row!.nextAttemptAt.getTime() + SECOND);
      expect(await processOutbox({ mailer: greylistedMailer, workerId: "worker-1", now: due })).toEqual({ sent: 1, failed: 0 });
      expect(await outboxRows()).toMatchObject([{ status: "sent", attempts: 2, lastError: null }]);
      expect(greylisting.to(email)).toHaveLength(1);
    } finally {
      await greylisting.close();
    }
  });
});

describe("several workers", () => {
  it("two workers on one database: each email is received exactly once", async () => {
    const addresses = Array.from({ length: 10 }, () => uniqueEmail("crowd"));
    for (const address of addresses) await subscribe(address, "http://shop.test");
    const secondMailer = createMailer(smtp.url);
    // Both workers read the same due rows; the conditional claim lets exactly one of them have each.

    const runs = await Promise.all([processOutbox({ mailer, workerId: "worker-a" }), processOutbox({ mailer: secondMailer, workerId: "worker-b" })]);
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(10);
    expect(runs.reduce((sum, run) => sum + run.failed, 0)).toBe(0);

    const rows = await outboxRows();
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(Array(10).fill(["sent", 1]));
    expect(smtp.received).toHaveLength(10);
    expect(receivedRowIds().sort()).toEqual(rows.map((row) => row.id).sort());
    for (const address of addresses) expect(smtp.to(address), address).toHaveLength(1);
  });

  it("many small passes of two workers racing each other still send each email once", async () => {
    const addresses = Array.from({ length: 10 }, () => uniqueEmail("batch"));
    for (const address of addresses) await subscribe(address, "http://shop.test");

    for (let pass = 0; pass < 10; pass++) {
      const runs = await Promise.all([processOutbox({ mailer, workerId: "worker-a", limit: 3 }), processOutbox({ mailer, workerId: "worker-b", limit: 3 })]);
      if (runs.every((run) => run.sent === 0)) break;
    }
    expect(await db.outboxMessage.count({ where: { status: { not: "sent" } } })).toBe(0);
    expect(smtp.received).toHaveLength(10);
    expect(new Set(receivedRowIds()).size).toBe(10);
  });

  it("a row whose lease expired (its worker crashed mid-send) is picked up again; a live lease is left alone", async () => {
    const crashed = uniqueEmail("crashed");
    const busy = uniqueEmail("busy");
    await subscribe(crashed, "http://shop.test");
    await subscribe(busy, "http://shop.test");
    const now = new Date();
    await db.outboxMessage.updateMany({
      where: { to: crashed },
      data: { status: "sending", claimedBy: "worker-that-died", claimedUntil: new Date(now.getTime() - SECOND) },
    });
    const liveLease = new Date(now.getTime() + 30 * SECOND);
    await db.outboxMessage.updateMany({
      where: { to: busy },
      data: { status: "sending", claimedBy: "worker-still-busy", claimedUntil: liveLease },
    });

    expect(await processOutbox({ mailer, workerId: "worker-1", now })).toEqual({ sent: 1, failed: 0 });
    expect(smtp.to(crashed)).toHaveLength(1);
    expect(smtp.to(busy)).toHaveLength(0);
    expect(await db.outboxMessage.findFirstOrThrow({ where: { to: crashed } })).toMatchObject({
      status: "sent",
      claimedBy: null,
      claimedUntil: null,
    });
    expect(await db.outboxMessage.findFirstOrThrow({ where: { to: busy } })).toMatchObject({
      status: "sending",
      claimedBy: "worker-still-busy",
    });

    // Once that lease runs out too, the row is taken over.
    expect(await processOutbox({ mailer, workerId: "worker-1", now: new Date(liveLease.getTime() + SECOND) })).toEqual({
      sent: 1,
      failed: 0,
    });
    expect(smtp.to(busy)).toHaveLength(1);
    expect(smtp.received).toHaveLength(2);
  });

  it("a row another worker took over after this worker claimed it is skipped, not sent", async () => {
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    await subscribe(first, "http://shop.test");
    await subscribe(second, "http://shop.test");
    // While worker-1 sends its first row, worker-2 takes the other one over (as if worker-1's claim had run out).
    const takeOverTheOtherRow: Mailer = {
      async send(email) {
        await mailer.send(email);
        await db.outboxMessage.updateMany({
          where: { id: { not: email.id } },
          data: { claimedBy: "worker-2", claimedUntil: new Date(Date.now() + 60 * SECOND), attempts: { increment: 1 } },
        });
      },
    };

    // One send at a time, so the takeover happens before worker-1 reaches the other row.
    expect(await processOutbox({ mailer: takeOverTheOtherRow, workerId: "worker-1", concurrency: 1 })).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const rows = await outboxRows();
    expect(rows.map((row) => [row.status, row.claimedBy])).toEqual(
      expect.arrayContaining([
        ["sent", null],
        ["sending", "worker-2"],
      ]),
    );
  });

  it("a send that takes longer than the lease keeps its row: the lease is renewed while it is in flight", async () => {
    const email = uniqueEmail("slow-one");
    await subscribe(email, "http://shop.test");
    // Worker A's send is held until the test lets it go.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowMailer: Mailer = { send: async (message) => (await held, mailer.send(message)) };
    const leaseMs = 300;
    const sending = processOutbox({ mailer: slowMailer, workerId: "worker-a", leaseMs });
    const claimedRow = () => db.outboxMessage.findFirst({ where: { claimedBy: "worker-a", status: "sending" } });
    await vi.waitFor(async () => expect(await claimedRow()).not.toBeNull());
    const firstLease = (await claimedRow())!.claimedUntil!;
    // The lease is renewed while the send is in flight…
    await vi.waitFor(async () => expect((await claimedRow())!.claimedUntil!.getTime()).toBeGreaterThan(firstLease.getTime()));
    // …so another instance looking just after the first lease would have run out finds nothing to take over.
    expect(await processOutbox({ mailer, workerId: "worker-b", leaseMs, now: new Date(firstLease.getTime() + 1) })).toEqual({ sent: 0, failed: 0 });
    release();
    expect(await sending).toEqual({ sent: 1, failed: 0 });
    expect(smtp.to(email)).toHaveLength(1);
    expect(await outboxRows()).toMatchObject([{ status: "sent", attempts: 1 }]);
  });
});

describe("a worker that is stopping (its process got SIGTERM)", () => {
  it("finishes and records the send in flight, sends nothing more, and gives its other claimed rows back at once", async () => {
    const addresses = Array.from({ length: 4 }, () => uniqueEmail("stopping"));
    for (const address of addresses) await subscribe(address, "http://shop.test");
    let stopping = false;
    // The stop arrives while the first email is being sent.
    const stopDuringSend: Mailer = {
      async send(email) {
        stopping = true;
        await mailer.send(email);
      },
    };

    expect(await processOutbox({ mailer: stopDuringSend, workerId: "worker-stopping", concurrency: 1, stopping: () => stopping })).toEqual({
      sent: 1,
      failed: 0,
    });
    expect(smtp.received).toHaveLength(1);
    const rows = await outboxRows();
    expect(rows.filter((row) => row.status === "sent")).toHaveLength(1);
    // Due now, for any instance, without waiting for a lease to run out.
    const returned = rows.filter((row) => row.status !== "sent");
    expect(returned.map((row) => [row.status, row.claimedBy, row.claimedUntil, row.attempts])).toEqual(Array(3).fill(["pending", null, null, 0]));

    expect(await processOutbox({ mailer, workerId: "worker-2" })).toEqual({ sent: 3, failed: 0 });
    expect(new Set(receivedRowIds()).size).toBe(4);
  });
});

describe("a burst of emails", () => {
  /** `count` newsletter welcomes queued at once, as after a burst of sign-ups or orders. */
  async function queueBurst(count: number) {
    await db.outboxMessage.createMany({
      data: Array.from({ length: count }, (_, index) => ({
        kind: "newsletter-welcome",
        to: `burst-${index}@example.com`,
        subject: "Welcome",
        text: "Welcome",
        html: "<p>Welcome</p>",
      })),
    });
  }

  it("drains in one go while batches come back full, a few sends at a time, not one batch a poll", async () => {
    await queueBurst(70);
    let inFlight = 0;
    let mostInFlight = 0;
    const counting: Mailer = {
      async send(message) {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          await mailer.send(message);
        } finally {
          inFlight--;
        }
      },
    };
    expect(await drainOutbox({ mailer: counting, workerId: "worker-1", concurrency: 4 })).toEqual({ sent: 70, failed: 0 });
    expect(mostInFlight).toBe(4);
    expect(new Set(receivedRowIds()).size).toBe(70);
    expect(await db.outboxMessage.count({ where: { status: { not: "sent" } } })).toBe(0);
  });

  it("two instances draining the same burst send each email exactly once", async () => {
    await queueBurst(120);
    const [a, b] = await Promise.all([
      drainOutbox({ mailer, workerId: "worker-a", concurrency: 3 }),
      drainOutbox({ mailer: createMailer(smtp.url), workerId: "worker-b", concurrency: 3 }),
    ]);
    expect(a.sent + b.sent).toBe(120);
    expect(a.sent).toBeGreaterThan(0);
    expect(b.sent).toBeGreaterThan(0);
    expect(smtp.received).toHaveLength(120);
    expect(new Set(receivedRowIds()).size).toBe(120);
  });

  it("a stop finishes the sends in flight, sends nothing more, and gives the rest of the batch back", async () => {
    await queueBurst(20);
    let stopping = false;
    let started = 0;
    const stopOnFirst: Mailer = {
      async send(message) {
        started++;
        stopping = true;
        await mailer.send(message);
      },
    };
    const run = await drainOutbox({ mailer: stopOnFirst, workerId: "worker-stopping", concurrency: 4, stopping: () => stopping });
    // The lanes that had begun finish their send; none starts another.
    expect(run).toEqual({ sent: started, failed: 0 });
    expect(started).toBeLessThanOrEqual(4);
    expect(await db.outboxMessage.count({ where: { status: "pending", claimedBy: null } })).toBe(20 - started);
  });
});
