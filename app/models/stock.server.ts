import type { NotNull } from "kysely";
import { bumpCatalogVersion } from "~/models/catalog.server";
import { lowStockEmail } from "~/services/emails.server";
import { enqueueEmails } from "~/services/outbox.server";
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

/**
 * Does what a change of a product's count from `before` to `row.stock` calls
 * for (afterCount), in the transaction of the change; answers whether it
 * moved the catalogue version on.
 */
async function afterChange(sql: Sql, productId: string, before: number, row: Counted) {
  const { bumpVersion, notify, clearNotified } = afterCount(before, row);
  if (bumpVersion) await bumpCatalogVersion(sql);
  if (notify || clearNotified) await sql.db.updateTable("Product").set({ lowStockNotified: notify }).where("id", "=", productId).execute();
  if (notify) await enqueueEmails(sql, [await lowStockEmail({ id: productId, name: row.name }, row.stock)]);
  return bumpVersion;
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
  const limited = await sql.db
    .selectFrom("Product")
    .select(["id", "name", "stock"])
    .where(
      "id",
      "in",
      lines.map((line) => line.productId),
    )
    .where("stock", "is not", null)
    .$narrowType<{ stock: NotNull }>()
    .orderBy("id")
    .forUpdate()
    .execute();
  if (limited.length === 0) return { versionMoved: false };
  const wanted = new Map<string, number>();
  for (const line of lines) wanted.set(line.productId, (wanted.get(line.productId) ?? 0) + line.quantity);
  for (const product of limited) {
    if (product.stock < wanted.get(product.id)!) throw new OutOfStock(product.id, product.name, product.stock);
  }
  const held = lines.filter((line) => limited.some((product) => product.id === line.productId));
  // A held line holds its whole quantity.
  await sql.db
    .updateTable("OrderItem")
    .set((eb) => ({ heldQuantity: eb.ref("quantity") }))
    .where(
      "id",
      "in",
      held.map((line) => line.id),
    )
    .execute();
  // One statement for every product the order holds, as each product's lock was taken above.
  const rows = await addToStock(sql, new Map(limited.map((product) => [product.id, -wanted.get(product.id)!])));
  let versionMoved = false;
  for (const row of rows) versionMoved = (await afterChange(sql, row.id, row.stock + wanted.get(row.id)!, row)) || versionMoved;
  return { versionMoved };
}

/**
 * Adds each product's change (less than 0 to take) to its limited count, in
 * one statement; answers what afterChange reads of each product that has a
 * limit (one without is left as it is, and not answered).
 */
async function addToStock(sql: Sql, changes: ReadonlyMap<string, number>) {
  const [first, ...rest] = changes;
  if (!first) return [];
  return sql.db
    .updateTable("Product")
    .set((eb) => {
      let change = eb.case("id").when(first[0]).then(first[1]);
      for (const [productId, by] of rest) change = change.when(productId).then(by);
      return { stock: eb("stock", "+", change.else(0).end()) };
    })
    .where("id", "in", [...changes.keys()])
    .where("stock", "is not", null)
    .returning(["id", "name", "stock", "lowStockThreshold", "lowStockNotified"])
    .$narrowType<{ stock: NotNull }>()
    .execute();
}

/** An order's items that hold stock (`holding`) or hold none, product by product in id order, as holdStock locks them. */
function orderItemsOf(sql: Sql, orderId: string, holding: boolean) {
  return sql.db
    .selectFrom("OrderItem")
    .select(["id", "productId", "quantity", "heldQuantity"])
    .where("orderId", "=", orderId)
    .where("heldQuantity", holding ? ">" : "=", 0)
    .orderBy("productId")
    .orderBy("id")
    .execute();
}

/** Gives back what an order's items hold (a checkout given up, a cancellation), or of chosen lines only (a refund that restocks them). */
export async function releaseStock(sql: Sql, orderId: string, lines?: readonly { itemId: number; quantity: number }[]) {
  // Product by product in id order, as holdStock locks them: two orders giving back the same products never wait on each other crosswise.
  const held = await orderItemsOf(sql, orderId, true);
  for (const item of held) {
    // Chosen lines (a refund that restocks them, decision 066) give back what they say, never more than the line holds.
    const chosen = lines ? lines.filter((line) => line.itemId === item.id).reduce((sum, line) => sum + line.quantity, 0) : item.heldQuantity;
    const back = Math.min(chosen, item.heldQuantity);
    if (back <= 0) continue;
    await sql.db
      .updateTable("OrderItem")
      .set({ heldQuantity: item.heldQuantity - back })
      .where("id", "=", item.id)
      .execute();
    const [row] = await addToStock(sql, new Map([[item.productId, back]]));
    if (row) await afterChange(sql, item.productId, row.stock - back, row);
  }
}

/**
 * An order paid after it was given up (its payment event came late): the money
 * is honoured, so its items are taken from stock again, down to 0 at most
 * (what was sold meanwhile stays sold).
 */
export async function retakeStock(sql: Sql, orderId: string) {
  const items = await orderItemsOf(sql, orderId, false);
  for (const item of items) {
    const before = await sql.db
      .selectFrom("Product")
      .select("stock")
      .where("id", "=", item.productId)
      .where("stock", "is not", null)
      .$narrowType<{ stock: NotNull }>()
      .forUpdate()
      .executeTakeFirst();
    if (!before) continue;
    const [row] = await addToStock(sql, new Map([[item.productId, Math.max(before.stock - item.quantity, 0) - before.stock]]));
    if (!row) continue;
    await sql.db
      .updateTable("OrderItem")
      .set({ heldQuantity: before.stock - row.stock })
      .where("id", "=", item.id)
      .execute();
    await afterChange(sql, item.productId, before.stock, row);
  }
}
