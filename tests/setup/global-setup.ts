import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";

export const TEMPLATE_DB = path.resolve("var/test/template.db");

/** Builds one migrated, seeded database that every test file copies. */
export default function setup() {
  mkdirSync(path.dirname(TEMPLATE_DB), { recursive: true });
  rmSync(TEMPLATE_DB, { force: true });
  const env = { ...process.env, DATABASE_URL: `file:${TEMPLATE_DB}` };
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], { env, stdio: "pipe" });
  execFileSync(path.resolve("node_modules/.bin/tsx"), ["prisma/seed.ts"], { env, stdio: "pipe" });
  return () => rmSync(path.dirname(TEMPLATE_DB), { recursive: true, force: true });
}
