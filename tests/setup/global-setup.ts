import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseDir: string;
  }
}

/**
 * Builds one migrated, seeded database that every test file copies. Each run
 * has a folder of its own, so two runs at once never delete each other's files.
 */
export default function setup(project: TestProject) {
  const dir = path.resolve(`var/test/run-${randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, "template.db")}` };
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], { env, stdio: "pipe" });
  execFileSync(path.resolve("node_modules/.bin/tsx"), ["prisma/seed.ts"], { env, stdio: "pipe" });
  project.provide("testDatabaseDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
