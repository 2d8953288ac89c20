import type { Prisma } from "~/generated/prisma/client";
import { bumpCatalogVersion } from "~/models/catalog.server";
import { lowStockEmail } from "~/services/emails.server";
import { enqueueEmails, enqueueEmailsSql } from "~/services/outbox.server";
import type { Sql } from "~/utils/db.server";

/**
 * Stock counts (issue 23, item 4; decision 063). A product's `stock` is how
 * many are left to sell, or null for no limit. Placing an order holds its
 * lines' quantities in the same transaction that writes it, each with one
 * conditional UPDATE (`stock >= quantity`), so PostgreSQL's row lock makes
 * concurrent checkouts take their turn and none can take more than is left;
 * a checkout given up (expired, cancelled) gives its holds back; a paid order
 * keeps them. When the count falls to the product's threshold the team is
 * emailed once, until a new batch lifts it above; and while it is at or below
 * the threshold every change moves the catalogue version, so the pages that
 * say "Only N left" or "Sold out" follow on every instance.
 */

/** No more of a product than this are left for the order: the checkout says so. */
export class OutOfStock extends Error {
  constructor(
    readonly productId: string,
    readonly productName: string,
    readonly left: number,
  ) {
    super(`Only ${left} ${productName} left`);
  }
}

type Line = { id: number; productId: string; quantity: number };
type Counted = { name: string; stock: number; lowStockThreshold: number; lowStockNotified: boolean };

/**
 * What a change of a product's count from `before` to `row.stock` calls for.
 * The pages show stock at or below the threshold: a change there (or out of
 * there) moves the catalogue version. Falling to the threshold emails the
 * team once; rising above it again clears that.
 */
function afterCount(before: number, row: Counted) {
  const shown = (count: number) => count <= row.lowStockThreshold;
  return {
    bumpVersion: shown(before) || shown(row.stock),
    notify: shown(row.stock) && !shown(before) && !row.lowStockNotified,
    clearNotified: !shown(row.stock) && row.lowStockNotified,
  };
}

async function afterChange(tx: Prisma.TransactionClient, productId: string, before: number, row: Counted) {
  const { bumpVersion, notify, clearNotified } = afterCount(before, row);
  if (bumpVersion) await bumpCatalogVersion(tx);
  if (notify) {
    await tx.product.update({ where: { id: productId }, data: { lowStockNotified: true } });
    await enqueueEmails(tx, [lowStockEmail({ id: productId, name: row.name }, row.stock)]);
  }
  if (clearNotified) await tx.product.update({ where: { id: productId }, data: { lowStockNotified: false } });
}

/**
 * Holds each line's quantity of its product's limited stock, recording it on
 * the order's item; throws OutOfStock (rolling the transaction back) when a
 * product has fewer left than the line asks. In the order's node-pg
 * transaction (decision 068): the products with a limit are locked in id
 * order (two checkouts of the same products never wait on each other in a
 * circle) and read as they are now; with none, that one statement is all.
 * A product given a limit after that lock is as if the order came first: the
 * owner sets a count, not a difference.
 */
export async function holdStock(sql: Sql, lines: Line[]): Promise<{ versionMoved: boolean }> {
  const { rows: limited } = await sql.query<{ id: string; name: string; stock: number }>(
    `SELECT "id", "name", "stock" FROM "Product" WHERE "id" = ANY($1::text[]) AND "stock" IS NOT NULL ORDER BY "id" FOR UPDATE`,
    [lines.map((line) => line.productId)],
  );
  if (limited.length === 0) return { versionMoved: false };
  const wanted = new Map<string, number>();
  for (const line of lines) wanted.set(line.productId, (wanted.get(line.productId) ?? 0) + line.quantity);
  for (const product of limited) {
    if (product.stock < wanted.get(product.id)!) throw new OutOfStock(product.id, product.name, product.stock);
  }
  const held = lines.filter((line) => limited.some((product) => product.id === line.productId));
  const { rows } = await sql.query<Counted & { id: string; before: number }>(
    `UPDATE "Product" p SET "stock" = p."stock" - w."quantity"
       FROM (SELECT "productId", sum("quantity")::int AS "quantity" FROM unnest($1::text[], $2::int[]) AS l("productId", "quantity") GROUP BY "productId") w
      WHERE p."id" = w."productId"
      RETURNING p."id", p."name", p."stock", p."lowStockThreshold", p."lowStockNotified", p."stock" + w."quantity" AS "before"`,
    [held.map((line) => line.productId), held.map((line) => line.quantity)],
  );
  await sql.query(`UPDATE "OrderItem" i SET "heldQuantity" = h."quantity" FROM unnest($1::int[], $2::int[]) AS h("id", "quantity") WHERE i."id" = h."id"`, [
    held.map((line) => line.id),
    held.map((line) => line.quantity),
  ]);
  let versionMoved = false;
  for (const row of rows) versionMoved = (await afterHold(sql, row.id, row.before, row)) || versionMoved;
  return { versionMoved };
}

/** `afterChange` for a hold made in the order's node-pg transaction; answers whether it moved the catalogue version on. */
async function afterHold(sql: Sql, productId: string, before: number, row: Counted) {
  const { bumpVersion, notify, clearNotified } = afterCount(before, row);
  if (bumpVersion) {
    await sql.query(`INSERT INTO "CatalogVersion" ("id", "version") VALUES (1, 1) ON CONFLICT ("id") DO UPDATE SET "version" = "CatalogVersion"."version" + 1`);
  }
  if (notify || clearNotified) await sql.query(`UPDATE "Product" SET "lowStockNotified" = $2 WHERE "id" = $1`, [productId, notify]);
  if (notify) await enqueueEmailsSql(sql, [lowStockEmail({ id: productId, name: row.name }, row.stock)]);
  return bumpVersion;
}

/** Gives back what an order's items hold (a checkout given up, a cancellation), or of chosen lines only (a refund that restocks them). */
export async function releaseStock(tx: Prisma.TransactionClient, orderId: string, lines?: readonly { itemId: number; quantity: number }[]) {
  // Product by product in id order, as holdStock locks them: two orders giving back the same products never wait on each other crosswise.
  const held = await tx.orderItem.findMany({
    where: { orderId, heldQuantity: { gt: 0 } },
    select: { id: true, productId: true, heldQuantity: true },
    orderBy: [{ productId: "asc" }, { id: "asc" }],
  });
  for (const item of held) {
    // Chosen lines (a refund that restocks them, decision 066) give back what they say, never more than the line holds.
    const chosen = lines ? lines.filter((line) => line.itemId === item.id).reduce((sum, line) => sum + line.quantity, 0) : item.heldQuantity;
    const back = Math.min(chosen, item.heldQuantity);
    if (back <= 0) continue;
    await tx.orderItem.update({ where: { id: item.id }, data: { heldQuantity: item.heldQuantity - back } });
    const [row] = await tx.$queryRaw<Counted[]>`
      UPDATE "Product" SET "stock" = "stock" + ${back}
       WHERE "id" = ${item.productId} AND "stock" IS NOT NULL
       RETURNING "name", "stock", "lowStockThreshold", "lowStockNotified"`;
    if (row) await afterChange(tx, item.productId, row.stock - back, row);
  }
}

/**
 * An order paid after it was given up (its payment event came late): the money
 * is honoured, so its items are taken from stock again, down to 0 at most
 * (what was sold meanwhile stays sold).
 */
export async function retakeStock(tx: Prisma.TransactionClient, orderId: string) {
  const items = await tx.orderItem.findMany({
    where: { orderId, heldQuantity: 0 },
    select: { id: true, productId: true, quantity: true },
    orderBy: [{ productId: "asc" }, { id: "asc" }],
  });
  for (const item of items) {
    const [row] = await tx.$queryRaw<(Counted & { before: number })[]>`
      UPDATE "Product" p SET "stock" = GREATEST(p."stock" - ${item.quantity}, 0)
        FROM (SELECT "id", "stock" AS "before" FROM "Product" WHERE "id" = ${item.productId} FOR UPDATE) old
       WHERE p."id" = old."id" AND p."stock" IS NOT NULL
       RETURNING p."name", p."stock", p."lowStockThreshold", p."lowStockNotified", old."before"`;
    if (!row) continue;
    await tx.orderItem.update({ where: { id: item.id }, data: { heldQuantity: row.before - row.stock } });
    await afterChange(tx, item.productId, row.before, row);
  }
}
