import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/utils/db.server";
import pg from "pg";
import { subscribe } from "~/models/newsletter.server";
import { createMailer } from "~/services/mailer.server";
import { processOutbox } from "~/services/outbox.server";
import { uniqueEmail } from "../utils";
import { startSmtpServer, type TestSmtpServer } from "./smtp";

/**
 * The database goes away just after the mail server accepted an email (a
 * restart, a failover): the worker's "sent" write fails. It is written again
 * while the row's lease holds, so the email is recorded once and no second
 * copy goes out when the lease would have run out (decision 080). Past the
 * lease the email is sent again, with the same Message-ID: at least once.
 */

// The worker's "sent" write failing as a restart makes it fail: at node-pg, whichever builder wrote the statement.
const cut = { failures: 0 };
const query = pg.Client.prototype.query;
// eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg's query answers a promise; the spy stands in for it
vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
  const [config, values] = args;
  const text = typeof config === "string" ? config : ((config as { text?: string }).text ?? "");
  if (cut.failures > 0 && /^update "OutboxMessage" set "status"/i.test(text) && Array.isArray(values) && values.includes("sent")) {
    cut.failures--;
    return Promise.reject(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }));
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query);

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
});

describe("a sent email whose 'sent' write meets the database away", () => {
  it("is written again until it lands, within the lease: one copy, one row marked sent", async () => {
    vi.spyOn(console, "info").mockImplementation(() => undefined);
    const email = uniqueEmail("restart-mail");
    await subscribe(email, "http://shop.test");
    cut.failures = 3;
    const run = await processOutbox({ mailer: createMailer(smtp.url), workerId: "worker-a", concurrency: 1, leaseMs: 10_000 });
    expect(run).toEqual({ sent: 1, failed: 0 });
    expect(cut.failures).toBe(0);
    expect(await db.outboxMessage.findMany({ where: { to: email }, select: { status: true, attempts: true } })).toEqual([{ status: "sent", attempts: 1 }]);
    // Another worker, once the lease would have run out, finds nothing to send.
    expect(await processOutbox({ mailer: createMailer(smtp.url), workerId: "worker-b", now: new Date(Date.now() + 60_000), concurrency: 1 })).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(smtp.received.filter((received) => received.envelope.to.includes(email))).toHaveLength(1);
  });

  it("past the lease, gives up the write: the next worker sends it again, with the same Message-ID (at least once)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const email = uniqueEmail("restart-mail-long");
    await subscribe(email, "http://shop.test");
    cut.failures = 1_000;
    await expect(processOutbox({ mailer: createMailer(smtp.url), workerId: "worker-a", concurrency: 1, leaseMs: 1_500 })).rejects.toThrow(
      "terminating connection",
    );
    cut.failures = 0;
    const again = await processOutbox({ mailer: createMailer(smtp.url), workerId: "worker-b", now: new Date(Date.now() + 5_000), concurrency: 1 });
    expect(again).toEqual({ sent: 1, failed: 0 });
    const copies = smtp.received.filter((received) => received.envelope.to.includes(email));
    expect(copies).toHaveLength(2);
    expect(new Set(copies.map((copy) => copy.messageId)).size).toBe(1);
  });
});
