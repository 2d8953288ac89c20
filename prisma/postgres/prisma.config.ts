import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The Prisma CLI's configuration for the PostgreSQL schema (generate, and
// `migrate diff` for scripts/postgres-migration.mjs). Like the SQLite one it
// runs the JavaScript engine through a driver adapter, so the CLI never
// downloads an engine. Migrations are applied by scripts/migrate-postgres.mjs.
// The schema's datasource names DATABASE_URL; only `migrate diff` between
// schema files runs through this config, which never connects.
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/postgres";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  // Relative to this file.
  schema: "schema.prisma",
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
});
