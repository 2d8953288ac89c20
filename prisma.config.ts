import path from "node:path";
import { defineConfig } from "prisma/config";
import { SQLiteAdapter } from "./app/utils/sqlite.server";

// Prisma 6.19's JavaScript schema engine: migrate and generate run through the
// app's own libSQL adapter, so no native engine is ever downloaded, and a
// migration waits for another process's write lock (busy timeout, WAL) like
// the app does instead of failing with SQLITE_BUSY.
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
    return new SQLiteAdapter(sqliteFile(process.env.DATABASE_URL ?? ""));
  },
});

function sqliteFile(url: string) {
  return url.replace(/^file:/, "");
}
