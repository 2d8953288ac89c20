// `npm test`'s PostgreSQL pass: the unit and integration suite again
// (TEST_DATABASE=postgres: each test file on its own copy of a migrated,
// seeded template, tests/setup/global-setup.ts), then the browser tests
// against a shop running on a fresh PostgreSQL database of its own.
// Without TEST_POSTGRES_URL it says so and passes: SQLite needs nothing.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { createScratchDatabase } from "./scratch-postgres.mjs";

const adminUrl = process.env.TEST_POSTGRES_URL;
if (!adminUrl) {
  console.log("TEST_POSTGRES_URL is not set: skipping the PostgreSQL pass.");
  process.exit(0);
}

function run(bin, args, env) {
  const result = spawnSync(path.resolve("node_modules/.bin", bin), args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

console.log(`PostgreSQL pass on ${new URL(adminUrl).host}: unit and integration tests`);
run("vitest", ["run"], { TEST_DATABASE: "postgres" });

const database = await createScratchDatabase(adminUrl, "chillpb_e2e");
console.log(`PostgreSQL pass: browser tests on database ${database.name}`);
try {
  // Its own port, so a SQLite shop left running for the other pass is never reused.
  run("playwright", ["test"], { E2E_DATABASE_URL: database.url, E2E_PORT: "3101" });
} finally {
  await database.drop();
}
