import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { subscribe } from "~/models/newsletter.server";
import type { EmailRow, SystemJson } from "~/models/system.server";
import { createMailer } from "~/services/mailer.server";
import { processOutbox } from "~/services/outbox.server";
import { db } from "~/utils/db.server";
import { callFunction, readJson, signedInAdmin, uniqueEmail, type ErrorJson } from "../utils";
import { startSmtpServer, type TestSmtpServer } from "./smtp";

/**
 * The owner's System page functions (decision 054): the shop's state, the
 * outbox, and Resend for a dead or sent email, once, against a real SMTP server.
 */

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});
beforeEach(async () => {
  await db.outboxMessage.deleteMany();
  smtp.received.length = 0;
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});

type EmailsJson = { emails: EmailRow[]; total: number };

/** One welcome email that the mail server refuses for good: a dead email with the server's reason. */
async function deadEmail() {
  const refusing = await startSmtpServer(0, { rejectRecipient: () => ({ code: 550, message: "5.1.1 Mailbox does not exist" }) });
  try {
    await subscribe(uniqueEmail("bounced"), "http://shop.test");
    await processOutbox({ mailer: createMailer(refusing.url), workerId: "worker-1", now: new Date() });
  } finally {
    await refusing.close();
  }
  const row = await db.outboxMessage.findFirstOrThrow({ where: { status: "dead" } });
  return row;
}

describe("get-system, get-emails and resend-email", () => {
  it("are the owner's: 401 without a session, 403 for staff", async () => {
    const { cookie } = await signedInAdmin("staff", "staff");
    for (const [name, body] of [
      ["get-system", {}],
      ["get-emails", {}],
      ["resend-email", { id: "00000000-0000-4000-8000-000000000000" }],
    ] as const) {
      expect((await callFunction(name, body)).status).toBe(401);
      const refused = await callFunction(name, body, { cookie });
      expect(refused.status).toBe(403);
      expect(await readJson<ErrorJson>(refused)).toEqual({ error: "Only the shop's owner can do this." });
    }
  });

  it("the System state: release, database, the email backlog and dead emails, the last webhook, the jobs", async () => {
    const { cookie } = await signedInAdmin("owner", "owner");
    await deadEmail();
    await subscribe(uniqueEmail("waiting"), "http://shop.test");
    await db.stripeEvent.create({ data: { id: `evt_system_${Date.now()}`, type: "checkout.session.completed", processedAt: new Date() } });
    const state = await readJson<SystemJson>(await callFunction("get-system", {}, { cookie }));
    expect(state.release).toMatchObject({ version: expect.any(String) });
    expect(state.database).toMatchObject({ ready: true, reason: null, version: expect.stringMatching(/^\d+/) });
    expect(state.database.migrations?.database).toBe(state.database.migrations?.release);
    expect(state.emails).toMatchObject({ pending: 1, dead: 1, oldestPendingAt: expect.any(String) });
    expect(state.lastWebhook).toMatchObject({ type: "checkout.session.completed", processed: true });
    expect(Array.isArray(state.jobs)).toBe(true);
  });

  it("a dead email is listed with its last error; Resend queues one copy, which the worker sends; a second Resend is refused", async () => {
    const { cookie } = await signedInAdmin("owner", "owner");
    const dead = await deadEmail();
    const listed = await readJson<EmailsJson>(await callFunction("get-emails", { status: "dead" }, { cookie }));
    expect(listed.total).toBe(1);
    expect(listed.emails[0]).toMatchObject({ id: dead.id, status: "dead", attempts: 1, resentAs: null, sentAt: null });
    expect(listed.emails[0]!.lastError).toContain("550 5.1.1 Mailbox does not exist");

    const resent = await callFunction("resend-email", { id: dead.id }, { cookie });
    expect(resent.status).toBe(200);
    const { id: copyId } = await readJson<{ id: string }>(resent);
    expect(await db.outboxMessage.findUniqueOrThrow({ where: { id: copyId } })).toMatchObject({
      status: "pending",
      to: dead.to,
      subject: dead.subject,
      html: dead.html,
    });
    expect(await processOutbox({ mailer: createMailer(smtp.url), workerId: "worker-1", now: new Date() })).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received.map((email) => email.envelope.to)).toEqual([[dead.to]]);

    const again = await callFunction("resend-email", { id: dead.id }, { cookie });
    expect(again.status).toBe(409);
    expect((await readJson<ErrorJson>(again)).error).toBe(`This email was resent already (as ${copyId}).`);
    const after = await readJson<EmailsJson>(await callFunction("get-emails", {}, { cookie }));
    expect(after.emails.find((email) => email.id === dead.id)).toMatchObject({ resentAs: copyId });
    expect(after.emails.find((email) => email.id === copyId)).toMatchObject({ status: "sent" });
    const audit = await db.auditEntry.findFirstOrThrow({ where: { action: "email.resend", subjectId: dead.id } });
    expect(audit.actorEmail).toContain("owner");
  });

  it("an email still waiting cannot be resent; an unknown id is 404; a bad id is 400", async () => {
    const { cookie } = await signedInAdmin("owner", "owner");
    await subscribe(uniqueEmail("waiting"), "http://shop.test");
    const waiting = await db.outboxMessage.findFirstOrThrow({ where: { status: "pending" } });
    const refused = await callFunction("resend-email", { id: waiting.id }, { cookie });
    expect(refused.status).toBe(409);
    expect((await readJson<ErrorJson>(refused)).error).toBe("This email is still waiting to go out.");
    expect((await callFunction("resend-email", { id: "00000000-0000-4000-8000-000000000000" }, { cookie })).status).toBe(404);
    expect((await callFunction("resend-email", { id: "not-an-id" }, { cookie })).status).toBe(400);
    expect(await db.outboxMessage.count()).toBe(1);
  });

  it("pages through the outbox, newest first", async () => {
    const { cookie } = await signedInAdmin("owner", "owner");
    for (let index = 0; index < 5; index++) await subscribe(uniqueEmail(`page-${index}`), "http://shop.test");
    const first = await readJson<EmailsJson>(await callFunction("get-emails", { page: 1, pageSize: 2 }, { cookie }));
    const third = await readJson<EmailsJson>(await callFunction("get-emails", { page: 3, pageSize: 2 }, { cookie }));
    expect(first.total).toBe(5);
    expect(first.emails).toHaveLength(2);
    expect(third.emails).toHaveLength(1);
    expect(first.emails[0]!.createdAt >= first.emails[1]!.createdAt).toBe(true);
  });
});
