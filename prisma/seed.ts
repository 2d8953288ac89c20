/**
 * Idempotent seed: writes the catalogue (requirements §3) and the WELCOME10
 * code so that running it twice leaves the same rows. Run by `npm start`,
 * which first claims the database for the demo or production
 * (`--role=demo|production`, decision 037): a claim refused exits 2 with the reason.
 */
import { catalogue, discountCodes } from "./catalogue";
import { createPrismaClient, db as shopDb } from "../app/utils/db.server";
import { changeCatalog } from "../app/models/catalog.server";
import { claimDatabaseRole, type DatabaseRole } from "../app/models/database-role.server";

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
  // The models' own client: a second one would keep its idle connections, and this process, alive for ten seconds after the work.
  const db = shopDb;
  const role = /^--role=(demo|production)$/.exec(process.argv[2] ?? "")?.[1] as DatabaseRole | undefined;
  try {
    const claim = role ? await claimDatabaseRole(role) : { ok: true as const };
    if (!claim.ok) {
      console.error(claim.message);
      process.exitCode = 2;
    } else {
      await seed(db);
      console.log(`Seeded ${catalogue.length} products.`);
    }
  } finally {
    await db.$disconnect();
  }
}
