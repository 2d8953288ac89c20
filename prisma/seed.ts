/**
 * Idempotent seed: writes the catalogue (spec §3) so that running it twice
 * leaves the same rows. Run by `npm start` on a new database and by
 * `npx prisma db seed`.
 */
import { catalogue } from "./catalogue";
import { createPrismaClient } from "../app/db.server";

export async function seed(db = createPrismaClient()) {
  for (const product of catalogue) {
    await db.product.upsert({ where: { id: product.id }, create: product, update: product });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const db = createPrismaClient();
  seed(db)
    .then(() => console.log(`Seeded ${catalogue.length} products.`))
    .finally(() => db.$disconnect());
}
