import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The Prisma CLI's configuration: `prisma generate`, and `prisma migrate diff`
// for scripts/db-migration.mjs. It runs Prisma 6.19's JavaScript engine through
// the node-pg driver adapter, so the CLI never downloads an engine. Migrations
// are applied by server/migrate.mjs (Postgrator), not by `prisma migrate`
// (docs/decisions/015). Nothing here connects unless a command needs a database.

// The schema's datasource names DATABASE_URL, and without a value Prisma 6.19
// falls back to downloading its native engine; `generate` never connects.
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/chillpb";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
});
