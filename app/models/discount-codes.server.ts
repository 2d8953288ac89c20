import { db, isUniqueViolation } from "~/utils/db.server";
import { recordAudit } from "~/models/audit.server";
import type { DiscountCodeJson, DiscountCodeTerms as DiscountCodeTermsJson } from "~/lib/owner-records";

/**
 * The owner's discount codes (issue 13). A code's `usesHeld` counts the
 * orders holding it: taken when an order is placed, given back when that
 * order is given up unpaid, kept once paid (orders.server.ts). The list shows
 * that count split into uses (paid orders) and reserved (unpaid orders whose
 * payment page is still open).
 */

/** The terms as saveDiscountCode takes them: the expiry as a Date. */
export type DiscountCodeTerms = Omit<DiscountCodeTermsJson, "expiresAt"> & { expiresAt: Date | null };

export type DiscountCodeRow = DiscountCodeJson;

type StoredCode = NonNullable<Awaited<ReturnType<typeof db.discountCode.findUnique>>>;

/** The stored row in the operator's words, as the audit and the API show it. */
function termsOf(code: StoredCode) {
  return {
    code: code.code,
    percentOff: code.basisPoints / 100,
    description: code.description,
    active: code.active,
    firstOrderOnly: code.firstOrderOnly,
    usageLimit: code.usageLimit,
    expiresAt: code.expiresAt?.toISOString() ?? null,
  };
}

export async function listDiscountCodes(now = new Date()): Promise<DiscountCodeRow[]> {
  const [codes, held] = await Promise.all([
    db.discountCode.findMany({ orderBy: { createdAt: "asc" } }),
    db.order.groupBy({
      by: ["discountCode", "paymentStatus"],
      where: { discountCode: { not: null }, paymentStatus: { in: ["paid", "unpaid"] } },
      _count: { _all: true },
    }),
  ]);
  const count = (code: string, status: "paid" | "unpaid") =>
    held.find((row) => row.discountCode === code && row.paymentStatus === status)?._count._all ?? 0;
  return codes.map((code) => ({
    ...termsOf(code),
    expired: code.expiresAt !== null && code.expiresAt <= now,
    uses: count(code.code, "paid"),
    reserved: count(code.code, "unpaid"),
    usesHeld: code.usesHeld,
    updatedAt: code.updatedAt.toISOString(),
  }));
}

export type DiscountCodeSave =
  | { ok: true; created: boolean; code: DiscountCodeRow }
  | { ok: false; field: "usageLimit" | "code"; error: string };

/**
 * Creates the code or updates it (by code), with an audit entry holding its
 * terms before and after. A usage limit may not go below the orders already
 * holding the code: the update is conditional on that, so an order reserving
 * a use at the same moment cannot slip past the new limit.
 */
export async function saveDiscountCode(actorEmail: string, terms: DiscountCodeTerms): Promise<DiscountCodeSave> {
  const data = {
    basisPoints: terms.percentOff * 100,
    description: terms.description,
    active: terms.active,
    firstOrderOnly: terms.firstOrderOnly,
    usageLimit: terms.usageLimit,
    expiresAt: terms.expiresAt,
  };
  try {
    const saved = await db.$transaction(async (tx) => {
      const before = await tx.discountCode.findUnique({ where: { code: terms.code } });
      if (before) {
        const { count } = await tx.discountCode.updateMany({
          where: { code: terms.code, ...(terms.usageLimit !== null && { usesHeld: { lte: terms.usageLimit } }) },
          data,
        });
        if (count === 0) return { ok: false as const, held: (await tx.discountCode.findUniqueOrThrow({ where: { code: terms.code } })).usesHeld };
      } else {
        await tx.discountCode.create({ data: { code: terms.code, ...data } });
      }
      const after = await tx.discountCode.findUniqueOrThrow({ where: { code: terms.code } });
      await recordAudit(tx, {
        actorEmail,
        action: "discount-code.save",
        subjectType: "discount-code",
        subjectId: terms.code,
        before: before ? termsOf(before) : null,
        after: termsOf(after),
      });
      return { ok: true as const, created: before === null };
    });
    if (!saved.ok) {
      return {
        ok: false,
        field: "usageLimit",
        error: `${saved.held} ${saved.held === 1 ? "order holds" : "orders hold"} this code already: the limit cannot be lower than that.`,
      };
    }
    const code = (await listDiscountCodes()).find((row) => row.code === terms.code);
    return { ok: true, created: saved.created, code: code! };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { ok: false, field: "code", error: "This code was created at the same moment by someone else. Please try again." };
  }
}
