/**
 * A child process of sqlite-processes.test.ts: one app instance writing to the
 * shared SQLite file. It connects, prints "ready", waits for "go" on stdin (so
 * that every process starts at the same moment), makes its writes all at once,
 * and prints one JSON line: { errors: string[], ms: number }.
 *
 * Usage: tsx tests/integration/sqlite-writer.ts <database file> <label> <count>
 */
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { createPrismaClient } from "../../app/utils/db.server";

const [file, label, count] = process.argv.slice(2);
if (!file || !label || !count) throw new Error("usage: sqlite-writer.ts <database file> <label> <count>");

const db = createPrismaClient(`file:${file}`);
const mailbox = (i: number) => `${label}-${i}@processes.test`;

/** Like newsletter.server's subscribe: look the address up, store it and queue its email, in one transaction. */
function signUp(i: number) {
  return db.$transaction(async (tx) => {
    if (await tx.subscriber.findUnique({ where: { mailbox: mailbox(i) } })) return;
    await tx.subscriber.create({ data: { email: mailbox(i), mailbox: mailbox(i), unsubscribeToken: randomBytes(24).toString("base64url") } });
    await tx.outboxMessage.createMany({ data: [{ kind: "welcome", to: mailbox(i), subject: "Welcome", text: "Hi", html: "<p>Hi</p>" }] });
  });
}

/** A write outside any transaction. */
function plainCreate(i: number) {
  return db.subscriber.create({ data: { email: mailbox(i), mailbox: mailbox(i), unsubscribeToken: randomBytes(24).toString("base64url") } });
}

await db.subscriber.count(); // connect before the start signal
console.log("ready");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === "go") break;
lines.close();

const started = performance.now();
const results = await Promise.allSettled(Array.from({ length: Number(count) }, (_, i) => (i % 4 === 3 ? plainCreate(i) : signUp(i))));
const errors = results.flatMap((result) => (result.status === "rejected" ? [String(result.reason).trim().split("\n").at(-1) ?? ""] : []));
const ms = Math.round(performance.now() - started);
await db.$disconnect();
console.log(JSON.stringify({ errors, ms }));
