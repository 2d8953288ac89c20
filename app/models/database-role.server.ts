import { db, sqlDb } from "~/utils/db.server";

/**
 * What a database is for (decision 037): the demo's (its accounts have
 * public passwords, its orders are samples) or a real shop's. The first shop
 * to start on a database claims it; a database is never both.
 */
export type DatabaseRole = "demo" | "production";

/** The demo's operators, whose passwords the README and the start-up lines print. */
export const DEMO_OPERATORS = [
  { email: "admin@chillpb.example", password: "chillpb-demo-admin", role: "owner" },
  { email: "staff@chillpb.example", password: "chillpb-demo-staff", role: "staff" },
] as const;

export type RoleClaim = { ok: true; claimedNow: boolean } | { ok: false; message: string };

const demoEmails = DEMO_OPERATORS.map((operator) => operator.email);

/**
 * Claims the database for `role`, or says why it cannot be. A database that
 * is not marked yet (made before the mark existed, or new) is checked first:
 * the demo does not take one holding real operators or orders (paid through
 * real Stripe, not the stand-in), and a real shop does not take one holding
 * the demo's accounts.
 */
export async function claimDatabaseRole(role: DatabaseRole): Promise<RoleClaim> {
  const marked = await db.databaseRole.findUnique({ where: { id: 1 } });
  if (marked?.role === role) return { ok: true, claimedNow: false };
  if (marked) return { ok: false, message: refusal(role, marked.role) };
  if (role === "demo") {
    const operators = await db.adminUser.count({ where: { email: { notIn: demoEmails } } });
    // Orders paid through a real Stripe: a session the stand-in did not make.
    const { orders } = await sqlDb()
      .selectFrom("Order as o")
      .select((eb) => eb.fn.countAll<number>().as("orders"))
      .where("o.stripeSessionId", "is not", null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom("MockCheckoutSession as m").select("m.id").whereRef("m.id", "=", "o.stripeSessionId"))))
      .executeTakeFirstOrThrow();
    if (operators > 0 || orders > 0) return { ok: false, message: refusal("demo", "production") };
  } else if ((await db.adminUser.count({ where: { email: { in: demoEmails } } })) > 0) {
    return { ok: false, message: refusal("production", "demo") };
  }
  // Two instances starting together: the first insert wins, the other finds the mark on its next start.
  await db.databaseRole.createMany({ data: [{ id: 1, role }], skipDuplicates: true });
  const claimed = await db.databaseRole.findUniqueOrThrow({ where: { id: 1 } });
  return claimed.role === role ? { ok: true, claimedNow: true } : { ok: false, message: refusal(role, claimed.role) };
}

function refusal(wanted: DatabaseRole, holder: string) {
  return wanted === "demo"
    ? "This database belongs to a real shop (real operators or orders, or marked production): the demo never runs on it. " +
        "Start it with NODE_ENV=production and the production settings, or leave DATABASE_URL unset for the demo's own database."
    : `This database was made by the ${holder === "demo" ? "demo" : holder}: it holds the demo's accounts, whose passwords are public. ` +
        "Give the real shop a new database (DATABASE_URL, or a new EMBEDDED_DATABASE_DIR).";
}
