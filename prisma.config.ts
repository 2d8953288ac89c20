import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

// Prisma 6.19's JavaScript schema engine: migrate and generate run through the
// better-sqlite3 driver, so no native engine is ever downloaded.
process.env.DATABASE_URL ??= "file:./var/shop.db";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: {
    path: path.join("prisma", "migrations"),
    seed: "tsx prisma/seed.ts",
  },
  async adapter() {
    return new PrismaBetterSQLite3({ url: sqliteFile(process.env.DATABASE_URL ?? "") });
  },
});

function sqliteFile(url: string) {
  return url.replace(/^file:/, "");
}
