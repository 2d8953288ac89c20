import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, inTransaction, isUniqueViolation, sqlDb, sqlIn, transaction } from "~/utils/db.server";

/**
 * The shop's typed SQL inside a Prisma transaction (sqlIn, decision 084): a
 * business write both kinds of transaction make is written once, with Kysely,
 * and run in either. So it must be part of that transaction (rolled back with
 * it), answer its rows and its counts as on the pool, and be refused by a
 * unique index the way the one check (isUniqueViolation) knows.
 */

const subscriber = () => {
  const id = randomUUID();
  return { id, email: `${id}@example.com`, mailbox: `${id}@example.com`, unsubscribeToken: id };
};

describe("Kysely inside a Prisma transaction", () => {
  it("writes in that transaction: committed with it, and rolled back with it", async () => {
    const kept = subscriber();
    const dropped = subscriber();
    await inTransaction((tx) => sqlIn(tx).db.insertInto("Subscriber").values(kept).execute());
    await expect(
      inTransaction(async (tx) => {
        await sqlIn(tx).db.insertInto("Subscriber").values(dropped).execute();
        // Prisma's own statement in the same transaction sees the row Kysely wrote.
        expect(await tx.subscriber.count({ where: { id: dropped.id } })).toBe(1);
        throw new Error("the change failed after the write");
      }),
    ).rejects.toThrow("the change failed after the write");
    expect(await db.subscriber.count({ where: { id: { in: [kept.id, dropped.id] } } })).toBe(1);
    await db.subscriber.delete({ where: { id: kept.id } });
  });

  it("answers rows and counts as on the pool", async () => {
    const row = subscriber();
    await sqlDb().insertInto("Subscriber").values(row).execute();
    const [inPrisma, onPool] = await Promise.all([
      inTransaction(async (tx) => {
        const sql = sqlIn(tx);
        const read = await sql.db.selectFrom("Subscriber").select(["email", "createdAt"]).where("id", "=", row.id).executeTakeFirstOrThrow();
        const updated = await sql.db.updateTable("Subscriber").set({ email: row.email }).where("id", "=", row.id).executeTakeFirstOrThrow();
        const returned = await sql.db.updateTable("Subscriber").set({ email: row.email }).where("id", "=", row.id).returning("id").execute();
        return { read, updated: Number(updated.numUpdatedRows), returned };
      }),
      transaction(async (sql) => {
        const read = await sql.db.selectFrom("Subscriber").select(["email", "createdAt"]).where("id", "=", row.id).executeTakeFirstOrThrow();
        const updated = await sql.db.updateTable("Subscriber").set({ email: row.email }).where("id", "=", row.id).executeTakeFirstOrThrow();
        const returned = await sql.db.updateTable("Subscriber").set({ email: row.email }).where("id", "=", row.id).returning("id").execute();
        return { read, updated: Number(updated.numUpdatedRows), returned };
      }),
    ]);
    expect(inPrisma).toEqual(onPool);
    expect(inPrisma.read.createdAt).toBeInstanceOf(Date);
    expect(inPrisma.updated).toBe(1);
    expect(inPrisma.returned).toEqual([{ id: row.id }]);
    await db.subscriber.delete({ where: { id: row.id } });
  });

  it("is refused by a unique index as isUniqueViolation knows it, by name, on every client", async () => {
    const row = subscriber();
    await db.subscriber.create({ data: row });
    const again = { ...subscriber(), mailbox: row.mailbox };
    const refusals = await Promise.all(
      [
        () => inTransaction((tx) => sqlIn(tx).db.insertInto("Subscriber").values(again).execute()),
        () => transaction((sql) => sql.db.insertInto("Subscriber").values(again).execute()),
        () => db.subscriber.create({ data: again }),
      ].map((write) =>
        write().then(
          () => null,
          (error: unknown) => error,
        ),
      ),
    );
    for (const refusal of refusals) expect(isUniqueViolation(refusal)).toBe(true);
    // Each names the index that refused it.
    for (const refusal of refusals) {
      expect(isUniqueViolation(refusal, "Subscriber_mailbox_key")).toBe(true);
      expect(isUniqueViolation(refusal, "Subscriber_unsubscribeToken_key")).toBe(false);
    }
    expect(isUniqueViolation(new Error("duplicate"))).toBe(false);
    await db.subscriber.delete({ where: { id: row.id } });
  });

  it("starts no transaction of its own inside Prisma's", async () => {
    await expect(
      inTransaction((tx) =>
        sqlIn(tx)
          .db.transaction()
          .execute(async () => 1),
      ),
    ).rejects.toThrow("Already inside Prisma's transaction");
  });
});
