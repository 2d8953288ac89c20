/**
 * Idempotent seed: writes the catalogue (spec §3) and the WELCOME10 code so
 * that running it twice leaves the same rows. Run by `npm start` and by
 * `npx prisma db seed`.
 */
import { catalogue, discountCodes } from "./catalogue";
import { createPrismaClient } from "../app/utils/db.server";
import { changeCatalog } from "../app/models/catalog.server";

export async function seed(db = createPrismaClient()) {
  // One transaction that also bumps the catalogue version: running servers show the seeded products.
  await changeCatalog(async (tx) => {
    for (const product of catalogue) {
      // The owner edits name, description, price and stock in the dashboard:
      // a re-seed (every `npm start`) refreshes only what the dashboard cannot change.
      const { category, flavor, image, imageAlt, imageWidth, imageHeight, position } = product;
      await tx.product.upsert({
        where: { id: product.id },
        create: product,
        update: { category, flavor, image, imageAlt, imageWidth, imageHeight, position },
      });
    }
  }, db);
  for (const discount of discountCodes) {
    // A code is the owner's once it exists: their edits and its usage survive a re-seed.
    await db.discountCode.upsert({ where: { code: discount.code }, create: discount, update: {} });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const db = createPrismaClient();
  seed(db)
    .then(() => console.log(`Seeded ${catalogue.length} products.`))
    .finally(() => db.$disconnect());
}
