import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "~/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient, type Prisma as PostgresPrisma } from "~/generated/prisma-postgres/client";
import { SQLiteAdapter } from "~/utils/sqlite.server";

/** A DATABASE_URL for PostgreSQL (production, several instances); anything else is a SQLite file. */
export function isPostgresUrl(url: string) {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * A Prisma client for DATABASE_URL.
 *
 * PostgreSQL: the client generated from prisma/postgres/schema.prisma (made by
 * scripts/postgres-schema.mjs from the one source schema), through node-pg.
 * Both clients come from the same models, so the app types everything with the
 * SQLite client's types; `PostgresMatchesSQLite` below fails the typecheck if
 * the two ever differ (docs/decisions/015).
 *
 * SQLite: the file of `file:<path>`. The adapter (app/utils/sqlite.server.ts)
 * opens it in WAL mode with a busy timeout, starts transactions with BEGIN
 * IMMEDIATE, and holds every other query back while a transaction is open:
 * inside `db.$transaction(async (tx) => …)`, query through `tx` only, since a
 * `db` query waits for the end of that very transaction.
 */
export function createPrismaClient(url = process.env.DATABASE_URL ?? "file:./var/shop.db"): PrismaClient {
  if (isPostgresUrl(url)) {
    // Safe: the two clients have the same models (`_PostgresMatchesSQLite` below).
    return new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as PrismaClient;
  }
  return new PrismaClient({ adapter: new SQLiteAdapter(url.replace(/^file:/, "")) });
}

/**
 * `true` only when both clients have the same models, each with the same
 * fields of the same types (enums included): a model or field in one schema
 * only, or a type that differs, makes `_PostgresMatchesSQLite` fail to typecheck.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Rows<Map> = { [Model in keyof Map]: Map[Model] extends { payload: { scalars: infer Scalars } } ? Scalars : never };
type PostgresMatchesSQLite = Same<Rows<Prisma.TypeMap["model"]>, Rows<PostgresPrisma.TypeMap["model"]>>;
type Expect<Check extends true> = Check;
type _PostgresMatchesSQLite = Expect<PostgresMatchesSQLite>;

// One client per process, kept across dev rebuilds so they don't leak connections.
const globalForDb = globalThis as typeof globalThis & { __db?: PrismaClient };

export const db = (globalForDb.__db ??= createPrismaClient());

/** Whether `db` is PostgreSQL: for the rare query that each database serves best written its own way. */
export const dbIsPostgres = isPostgresUrl(process.env.DATABASE_URL ?? "");

/** A write refused by a unique index (Prisma's P2002): someone else wrote that row first. */
export function isUniqueViolation(error: unknown) {
  return error instanceof Error && "code" in error && error.code === "P2002";
}
