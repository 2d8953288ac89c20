/**
 * Type-level tests of the shop's SQL, run by `tsc` (npm run typecheck):
 * Kysely's row types come from prisma/schema.prisma, so a statement that
 * does not return what its caller reads does not compile (decision 083).
 * Each `@ts-expect-error` fails the typecheck if the line below it ever
 * compiles. Nothing here runs.
 */
import type { Insertable } from "kysely";
import type { OutboxMessage } from "~/generated/kysely/database";
import { orderConfirmationEmail } from "~/services/emails.server";
import { sqlDb } from "~/utils/sql.server";

export async function typeTests() {
  const partial = await sqlDb().selectFrom("Order").select(["id", "email", "totalCents", "createdAt"]).where("id", "=", "x").executeTakeFirstOrThrow();
  // @ts-expect-error the confirmation email reads the name, the address and every figure, which this statement does not return
  await orderConfirmationEmail({ ...partial, items: [] }, { postalAddress: null });

  // @ts-expect-error a column the table does not have (a new field before its column is in schema.prisma)
  await sqlDb().selectFrom("Order").select(["id", "noSuchColumn"]).execute();

  // @ts-expect-error a status the column's enum does not have
  await sqlDb().updateTable("Order").set({ paymentStatus: "settled" }).where("id", "=", "x").execute();

  const withoutId = { kind: "k", to: "a@example.com", subject: "s", text: "t", html: "h", nextAttemptAt: "2026-01-01T00:00:00Z" };
  // @ts-expect-error a message's id has no database default (Prisma's @default(uuid()) is made in Prisma's client): an insert must give it
  const message: Insertable<OutboxMessage> = withoutId;
  return message;
}
