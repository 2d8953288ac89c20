import { db, isUniqueViolation, inTransaction } from "~/utils/db.server";
import { recordAudit } from "~/models/audit.server";
import type { DiscountCodeJson, DiscountCodeTerms as DiscountCodeTermsJson } from "~/lib/owner-records";
import { TAKEN_PAYMENT_STATUSES, type PaymentStatus } from "~/lib/orders";
import { centsToDollars } from "~/lib/money";
import { showOffer, storedOfferOf, storedScopeOf, type StoredOffer } from "~/models/discount-kinds.server";

/**
 * The owner's discount codes (decisions 022, 026). A code's `usesHeld` counts the
 * orders holding it: taken when an order is placed, given back when that
 * order is given up unpaid, kept once paid, refunds included (orders.server.ts,
 * decision 023). The list shows that count split into uses (paid and refunded
 * orders) and reserved (unpaid orders whose payment page is still open).
 */

/**
 * The terms as saveDiscountCode takes them: the kind's figures as stored
 * (`offer`), the expiry as a Date. A limit or expiry left out (undefined)
 * keeps an existing code's, and a new code has none; null clears it.
 */
export type DiscountCodeTerms = Pick<DiscountCodeTermsJson, "code" | "appliesTo" | "description" | "active" | "firstOrderOnly"> & {
  offer: StoredOffer;
  usageLimit?: number | null;
  expiresAt?: Date | null;
  startsAt?: Date | null;
  minimumSubtotalCents: number | null;
};

export type DiscountCodeRow = DiscountCodeJson;

type StoredCode = NonNullable<Awaited<ReturnType<typeof db.discountCode.findUnique>>>;

/** The stored row in the operator's words, as the audit and the API show it. */
function termsOf(code: StoredCode): DiscountCodeTermsJson {
  const appliesTo = storedScopeOf(code);
  return {
    ...showOffer(storedOfferOf(code)),
    code: code.code,
    minimumSubtotal: code.minimumSubtotalCents === null ? null : centsToDollars(code.minimumSubtotalCents),
    appliesTo,
    startsAt: code.startsAt?.toISOString() ?? null,
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
      where: { discountCode: { not: null }, paymentStatus: { in: [...TAKEN_PAYMENT_STATUSES, "unpaid"] } },
      _count: { _all: true },
    }),
  ]);
  const count = (code: string, statuses: readonly PaymentStatus[]) =>
    held.filter((row) => row.discountCode === code && statuses.includes(row.paymentStatus)).reduce((sum, row) => sum + row._count._all, 0);
  return codes.map((code) => ({
    ...termsOf(code),
    expired: code.expiresAt !== null && code.expiresAt <= now,
    // A refunded order keeps its use (the checkout counts it against the limit), so the list does too.
    uses: count(code.code, TAKEN_PAYMENT_STATUSES),
    reserved: count(code.code, ["unpaid"]),
    usesHeld: code.usesHeld,
    updatedAt: code.updatedAt.toISOString(),
  }));
}

type DiscountCodeRefusal = { ok: false; field: "usageLimit" | "code"; error: string };

export type DiscountCodeSave = { ok: true; created: boolean; code: DiscountCodeRow } | DiscountCodeRefusal;

const limitBelowHeld = (held: number): DiscountCodeRefusal => ({
  ok: false,
  field: "usageLimit",
  error: `${held} ${held === 1 ? "order holds" : "orders hold"} this code already: the limit cannot be lower than that.`,
});

/**
 * Creates the code or updates it (by code), with an audit entry holding its
 * terms before and after. A usage limit or expiry left out keeps the stored
 * one. A usage limit may not go below the orders already holding the code:
 * the update is conditional on that, so an order reserving a use at the same
 * moment cannot slip past the new limit. `createOnly` (the admin's "New
 * code") never updates: a code that exists, or is created by someone else at
 * the same moment, is refused on the `code` field.
 */
export async function saveDiscountCode(
  actorEmail: string,
  terms: DiscountCodeTerms,
  { createOnly = false }: { createOnly?: boolean } = {},
): Promise<DiscountCodeSave> {
  const taken: DiscountCodeRefusal = { ok: false, field: "code", error: `A code named ${terms.code} already exists.` };
  const data = {
    kind: terms.offer.kind,
    terms: terms.offer.terms,
    minimumSubtotalCents: terms.minimumSubtotalCents,
    appliesTo: terms.appliesTo,
    description: terms.description,
    active: terms.active,
    firstOrderOnly: terms.firstOrderOnly,
    ...(terms.usageLimit !== undefined && { usageLimit: terms.usageLimit }),
    ...(terms.expiresAt !== undefined && { expiresAt: terms.expiresAt }),
    ...(terms.startsAt !== undefined && { startsAt: terms.startsAt }),
  };
  try {
    const saved = await inTransaction(async (tx) => {
      const before = await tx.discountCode.findUnique({ where: { code: terms.code } });
      if (before && createOnly) return taken;
      if (before) {
        const { count } = await tx.discountCode.updateMany({
          where: { code: terms.code, ...(typeof terms.usageLimit === "number" && { usesHeld: { lte: terms.usageLimit } }) },
          data,
        });
        if (count === 0) return limitBelowHeld((await tx.discountCode.findUniqueOrThrow({ where: { code: terms.code } })).usesHeld);
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
    if (!saved.ok) return saved;
    const code = (await listDiscountCodes()).find((row) => row.code === terms.code);
    return { ok: true, created: saved.created, code: code! };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (createOnly) return taken;
    return { ok: false, field: "code", error: "This code was created at the same moment by someone else. Please try again." };
  }
}
