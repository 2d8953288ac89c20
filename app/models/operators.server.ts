import { z } from "zod";
import { recordAudit } from "~/models/audit.server";
import { EMAIL_MAX_LENGTH, isEmailAddress, normalizeEmail } from "~/lib/email";
import type { OperatorRow } from "~/lib/operator-accounts";
import { OPERATOR_ROLES, type Admin, type OperatorRole } from "~/lib/operators";
import { hashPassword, newPasswordProblem, verifyPassword } from "~/models/passwords.server";
import type { Prisma } from "~/generated/prisma/client";
import { advisoryXactLock, db, inTransaction, sqlIn } from "~/utils/db.server";

/**
 * The owner manages the operators' accounts (decision 021): add one, change a
 * role, reset a password, remove one. A change of role or password ends that
 * operator's sessions, so it takes effect at once. The shop always keeps at
 * least one owner, and an owner cannot remove their own account. Every change
 * is in the audit record, without any password or hash.
 */

const MAX_PASSWORD_LENGTH = 200;

/**
 * Serialises changes to the operator accounts with a transaction-scoped
 * advisory lock, so two owners demoting each other at once cannot leave the
 * shop without one.
 */
async function lockOperators(tx: Prisma.TransactionClient) {
  await advisoryXactLock(sqlIn(tx), "chillpb:operators");
}

const email = z
  .string({ required_error: "is required", invalid_type_error: "must be an email address" })
  .max(EMAIL_MAX_LENGTH, "is too long")
  .transform(normalizeEmail)
  .refine(isEmailAddress, "must be an email address");

export const saveOperatorSchema = z
  .object({
    email,
    role: z.enum(OPERATOR_ROLES, { errorMap: () => ({ message: `must be one of ${OPERATOR_ROLES.join(", ")}` }) }),
    /** Required for a new account; for an existing one, a new password (it ends their sessions). */
    password: z
      .string({ invalid_type_error: "must be text" })
      .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`)
      .superRefine((password, ctx) => {
        const problem = newPasswordProblem(password);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      })
      .optional(),
  })
  .strict();

export const removeOperatorSchema = z.object({ email }).strict();

/**
 * Creates an operator or resets their password and role; a reset also ends
 * their sessions (so a role taken away takes effect at once). For the
 * command line, the demo seed and tests; the owner's page goes through
 * saveOperator.
 */
export async function upsertAdmin(rawEmail: string, password: string, role: OperatorRole) {
  const email = normalizeEmail(rawEmail);
  if (!isEmailAddress(email)) throw new Error(`"${rawEmail}" is not an email address`);
  const problem = newPasswordProblem(password);
  if (problem) throw new Error(`The password ${problem}`);
  // An account that already has this password and role is left as it is, its
  // sessions too: the demo's seed sets its accounts on every start, and must
  // not sign their operators out on each restart, reload or second instance.
  const existing = await db.adminUser.findUnique({ where: { email } });
  if (existing && existing.role === role && (await verifyPassword(password, existing.passwordHash))) return existing;
  const passwordHash = await hashPassword(password);
  const user = await db.adminUser.upsert({ where: { email }, create: { email, passwordHash, role }, update: { passwordHash, role } });
  // A new password or role ends the account's sessions: whoever knew the old one is signed out.
  await db.adminSession.updateMany({ where: { userId: user.id, revokedAt: null, createdAt: { lt: new Date() } }, data: { revokedAt: new Date() } });
  return user;
}

export async function listOperators(): Promise<OperatorRow[]> {
  const users = await db.adminUser.findMany({
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, email: true, role: true, createdAt: true, sessions: { select: { lastSeenAt: true }, orderBy: { lastSeenAt: "desc" }, take: 1 } },
  });
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    role: user.role,
    createdAt: user.createdAt.toISOString(),
    lastSeenAt: user.sessions[0]?.lastSeenAt.toISOString() ?? null,
  }));
}

type SaveResult =
  | { ok: true; created: boolean; message: string; operator: OperatorRow }
  | { ok: false; reason: "password-required"; field: "password"; message: string }
  | { ok: false; reason: "last-owner"; message: string };

export async function saveOperator(actor: Admin, input: z.infer<typeof saveOperatorSchema>): Promise<SaveResult> {
  // Hashing is slow on purpose: done before the transaction holds the write lock.
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return inTransaction(async (tx) => {
    await lockOperators(tx);
    const existing = await tx.adminUser.findUnique({ where: { email: input.email } });
    if (!existing && !passwordHash) {
      return { ok: false, reason: "password-required", field: "password", message: "is required for a new operator" } as const;
    }
    if (existing?.role === "owner" && input.role !== "owner" && (await tx.adminUser.count({ where: { role: "owner" } })) <= 1) {
      return { ok: false, reason: "last-owner", message: "The shop needs at least one owner." } as const;
    }
    const user = existing
      ? await tx.adminUser.update({ where: { id: existing.id }, data: { role: input.role, ...(passwordHash ? { passwordHash } : {}) } })
      : await tx.adminUser.create({ data: { email: input.email, role: input.role, passwordHash: passwordHash! } });
    const roleChanged = existing !== null && existing.role !== input.role;
    if (roleChanged || (existing && passwordHash)) {
      await tx.adminSession.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: new Date() } });
    }
    await recordAudit(tx, {
      actorEmail: actor.email,
      action: "operator.save",
      subjectType: "operator",
      subjectId: user.email,
      before: existing ? { role: existing.role } : null,
      after: { role: user.role, passwordChanged: passwordHash !== null },
    });
    const operator: OperatorRow = { id: user.id, email: user.email, role: user.role, createdAt: user.createdAt.toISOString(), lastSeenAt: null };
    const message = existing
      ? `${user.email} is now ${user.role === "owner" ? "an owner" : "staff"}${passwordHash ? " with a new password" : ""}.`
      : `${user.email} can now sign in as ${user.role === "owner" ? "an owner" : "staff"}.`;
    return { ok: true, created: !existing, message, operator } as const;
  });
}

type RemoveResult = { ok: true; message: string } | { ok: false; reason: "not-found" | "self" | "last-owner"; message: string };

export async function removeOperator(actor: Admin, emailAddress: string): Promise<RemoveResult> {
  return inTransaction(async (tx) => {
    await lockOperators(tx);
    const user = await tx.adminUser.findUnique({ where: { email: emailAddress } });
    if (!user) return { ok: false, reason: "not-found", message: "No operator with that email." } as const;
    if (user.id === actor.id) return { ok: false, reason: "self", message: "You cannot remove your own account." } as const;
    if (user.role === "owner" && (await tx.adminUser.count({ where: { role: "owner" } })) <= 1) {
      return { ok: false, reason: "last-owner", message: "The shop needs at least one owner." } as const;
    }
    // Their sessions go with the account (onDelete: Cascade).
    await tx.adminUser.delete({ where: { id: user.id } });
    await recordAudit(tx, {
      actorEmail: actor.email,
      action: "operator.remove",
      subjectType: "operator",
      subjectId: user.email,
      before: { role: user.role },
      after: null,
    });
    return { ok: true, message: `${user.email} can no longer sign in.` } as const;
  });
}
