import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client";

export function createPrismaClient(url = process.env.DATABASE_URL ?? "file:./var/shop.db") {
  const adapter = new PrismaBetterSQLite3({ url: url.replace(/^file:/, "") });
  return new PrismaClient({ adapter });
}

// One client per process, kept across dev rebuilds so they don't leak connections.
const globalForDb = globalThis as typeof globalThis & { __db?: PrismaClient };

export const db = (globalForDb.__db ??= createPrismaClient());
