import { PrismaClient } from "~/generated/prisma/client";
import { SQLiteAdapter } from "~/sqlite.server";

/**
 * A Prisma client on the SQLite file of `url` (a DATABASE_URL: "file:" and a
 * path). The adapter (app/sqlite.server.ts) opens it in WAL mode with a busy
 * timeout, starts transactions with BEGIN IMMEDIATE, and holds every other
 * query back while a transaction is open: inside `db.$transaction(async (tx)
 * => …)`, query through `tx` only, since a `db` query waits for the end of
 * that very transaction.
 */
export function createPrismaClient(url = process.env.DATABASE_URL ?? "file:./var/shop.db") {
  return new PrismaClient({ adapter: new SQLiteAdapter(url.replace(/^file:/, "")) });
}

// One client per process, kept across dev rebuilds so they don't leak connections.
const globalForDb = globalThis as typeof globalThis & { __db?: PrismaClient };

export const db = (globalForDb.__db ??= createPrismaClient());

/** A write refused by a unique index (Prisma's P2002): someone else wrote that row first. */
export function isUniqueViolation(error: unknown) {
  return error instanceof Error && "code" in error && error.code === "P2002";
}
