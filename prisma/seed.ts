/**
 * Idempotent seed: writes the catalogue (spec §3) and the WELCOME10 code so
 * that running it twice leaves the same rows. Run by `npm start` and by
 * `npx prisma db seed`.
 */
import { catalogue, discountCodes } from "./catalogue";
import { createPrismaClient } from "../app/utils/db.server";

export async function seed(db = createPrismaClient()) {
  for (const product of catalogue) {
    await db.product.upsert({ where: { id: product.id }, create: product, update: product });
  }
  for (const { code, ...terms } of discountCodes) {
    // Usage counts and an operator's deactivation survive a re-seed.
    await db.discountCode.upsert({ where: { code }, create: { code, ...terms }, update: terms });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const db = createPrismaClient();
  seed(db)
    .then(() => console.log(`Seeded ${catalogue.length} products.`))
    .finally(() => db.$disconnect());
}
