import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";

/**
 * The app shares one SQLite connection per process. An interactive
 * transaction is open on that connection across several awaits, so without
 * care a query of another request would run inside it, see its uncommitted
 * rows, and be undone with it. See app/utils/db.server.ts.
 */

const mailbox = (label: string) => `${label}-${randomUUID()}@isolation.test`;

function subscriber(address: string) {
  return { email: address, mailbox: address, unsubscribeToken: randomUUID() };
}

/** A promise and the function that settles it: "the transaction is still busy". */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const stored = async (address: string) => (await db.subscriber.count({ where: { mailbox: address } })) === 1;

class RolledBack extends Error {}

/**
 * A transaction that has written `address` and stays open until `finish.open()`,
 * then rolls back; answered once the write is done.
 */
async function heldOpenAfterWriting(address: string) {
  const written = gate();
  const finish = gate();
  const transaction = db.$transaction(async (tx) => {
    await tx.subscriber.create({ data: subscriber(address) });
    written.open();
    await finish.opened;
    throw new RolledBack();
  });
  await written.opened;
  return { finish, transaction };
}

// The SQLite adapter's own guarantees: the PostgreSQL pass has no such adapter.
describe.skipIf(process.env.TEST_DATABASE === "postgres")("one process, one SQLite connection", () => {
  it("keeps another request's write out of an open transaction that then rolls back", async () => {
    const inside = mailbox("inside");
    const outside = mailbox("outside");
    const { finish, transaction } = await heldOpenAfterWriting(inside);

    // Another request's plain write, acknowledged or not while the transaction is open.
    const plain = db.subscriber.create({ data: subscriber(outside) });
    const early = await Promise.race([plain.then(() => "done" as const), sleep(200).then(() => "waiting" as const)]);

    finish.open();
    await expect(transaction).rejects.toBeInstanceOf(RolledBack);
    await plain;

    expect(await stored(outside)).toBe(true);
    expect(await stored(inside)).toBe(false);
    // It waited for the transaction instead of running inside it.
    expect(early).toBe("waiting");
  });

  it("does not let another request read a transaction's uncommitted rows", async () => {
    const inside = mailbox("dirty");
    const { finish, transaction } = await heldOpenAfterWriting(inside);
    // Prisma's promises are lazy: `then` sends the query now, while the transaction is open.
    const read = db.subscriber.findUnique({ where: { mailbox: inside } }).then((row) => row);
    await sleep(50);
    finish.open();

    await expect(transaction).rejects.toBeInstanceOf(RolledBack);
    expect(await read).toBeNull();
  });

  it("keeps every acknowledged plain write while many transactions commit and roll back around it", async () => {
    const plain = Array.from({ length: 60 }, (_, i) => mailbox(`plain-${i}`));
    const rolledBack = Array.from({ length: 30 }, (_, i) => mailbox(`undone-${i}`));
    const committed = Array.from({ length: 30 }, (_, i) => mailbox(`kept-${i}`));

    const results = await Promise.allSettled([
      ...rolledBack.map((address) =>
        db.$transaction(async (tx) => {
          await tx.subscriber.create({ data: subscriber(address) });
          await sleep(1);
          throw new RolledBack();
        }),
      ),
      ...committed.map((address) =>
        db.$transaction(async (tx) => {
          if (await tx.subscriber.findUnique({ where: { mailbox: address } })) return;
          await sleep(1);
          await tx.subscriber.create({ data: subscriber(address) });
        }),
      ),
      ...plain.map((address) => db.subscriber.create({ data: subscriber(address) })),
    ]);

    const reasons = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
    expect(reasons.filter((reason) => !(reason instanceof RolledBack)).map(String)).toEqual([]);
    expect(reasons).toHaveLength(rolledBack.length);
    expect(await db.subscriber.count({ where: { mailbox: { in: plain } } })).toBe(plain.length);
    expect(await db.subscriber.count({ where: { mailbox: { in: committed } } })).toBe(committed.length);
    expect(await db.subscriber.count({ where: { mailbox: { in: rolledBack } } })).toBe(0);
  });

  it("frees the connection when a transaction fails inside or times out", async () => {
    const taken = mailbox("taken");
    await db.subscriber.create({ data: subscriber(taken) });

    // A unique violation inside the transaction: Prisma rolls it back.
    await expect(db.$transaction((tx) => tx.subscriber.create({ data: subscriber(taken) }))).rejects.toMatchObject({ code: "P2002" });
    // A transaction that outlives its timeout: Prisma rolls it back on its own.
    const slow = mailbox("slow");
    await expect(
      db.$transaction(
        async (tx) => {
          await tx.subscriber.create({ data: subscriber(slow) });
          await sleep(400);
        },
        { timeout: 100 },
      ),
    ).rejects.toThrow();

    const after = mailbox("after");
    await db.subscriber.create({ data: subscriber(after) });
    expect(await stored(after)).toBe(true);
    expect(await stored(slow)).toBe(false);
  });

  it("frees the connection when Prisma's own COMMIT or ROLLBACK fails", async () => {
    // The transaction is ended behind Prisma's back, so its COMMIT / ROLLBACK find no transaction.
    await expect(db.$transaction((tx) => tx.$executeRawUnsafe("COMMIT"))).rejects.toThrow(/no transaction is active/);
    await expect(
      db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("ROLLBACK");
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);

    const after = mailbox("after-failed-end");
    await db.subscriber.create({ data: subscriber(after) });
    expect(await stored(after)).toBe(true);
  });

  it("runs a batch transaction of plain queries as one unit", async () => {
    const first = mailbox("batch-1");
    const second = mailbox("batch-2");
    await db.$transaction([db.subscriber.create({ data: subscriber(first) }), db.subscriber.create({ data: subscriber(second) })]);
    expect((await stored(first)) && (await stored(second))).toBe(true);
  });

  it("opens the file in WAL mode with a busy timeout, NORMAL sync and foreign keys", async () => {
    const pragma = async (name: string) => {
      const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`);
      return String(Object.values(rows[0] ?? {})[0]);
    };
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("busy_timeout")).toBe("5000");
    expect(await pragma("synchronous")).toBe("1");
    expect(await pragma("foreign_keys")).toBe("1");
  });
});
