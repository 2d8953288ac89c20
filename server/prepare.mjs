// Makes a fresh clone runnable: builds the app when its sources are newer
// than the build, applies the database migrations and seeds the catalogue.
// server.mjs does each before it serves; `node server/prepare.mjs` does them
// on their own (starting the embedded PostgreSQL for the while when
// DATABASE_URL is unset).
// First: on a Node.js older than 22 `npm run dev` and `node server/prepare.mjs` stop here with one line.
import "./node-version.mjs";
import { buildShop } from "../scripts/build-shop.mjs";
import { precompressAssets } from "../scripts/precompress.mjs";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { vacuumStaleTables, migrate, withStartupLock, StartupLockTimeoutError } from "./migrate.mjs";

/** @param {string} command @param {string[]} args */
const run = (command, args) => execFileSync(command, args, { stdio: "inherit", env: process.env });
/** @param {string} name */
const bin = (name) => path.resolve("node_modules/.bin", name);

/** @param {string} dir @returns {number} */
function newestMtime(dir) {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** @param {string} output @param {string[]} sources */
const stale = (output, sources) => !existsSync(output) || Math.max(...sources.map((source) => newestMtime(source))) > statSync(output).mtimeMs;

/** Builds the shop and the admin app when their sources changed since the last build. */
export function buildIfStale() {
  // mocks/ is bundled into the server build too: the demo's stand-ins and their payment page.
  if (stale("build/index.js", ["app", "mocks", "remix.config.js"])) {
    console.log("Building the shop…");
    buildShop();
  }
  // app/lib is in the admin's sources too: it imports the shop's vocabulary through its @shop alias.
  if (stale("admin/dist/index.html", ["admin/src", "admin/index.html", "admin/vite.config.ts", "app/lib"])) {
    console.log("Building the admin app…");
    run(bin("vite"), ["build", "--config", "admin/vite.config.ts", "--logLevel", "warn"]);
  }
  // Each asset compressed once, here, never per request (decision 056); only what is new since the last time.
  precompressAssets();
}

/**
 * Claims the database for the demo or production (a refusal exits 2 with its
 * reason: decision 037) and seeds the catalogue; the demo also gets its
 * accounts and sample orders.
 * @param {boolean} demo
 */
function seed(demo) {
  run(bin("tsx"), ["prisma/seed.ts", `--role=${demo ? "demo" : "production"}`]);
  if (demo) run(bin("tsx"), ["prisma/seed-demo.ts"]);
}

/** A seed that exited 2: the database is not this shop's to use; the seed printed why. */
class DatabaseRefused extends Error {}

/**
 * Migrates and seeds the database of `databaseUrl`. Instances starting
 * together take turns: the first migrates and seeds, the rest find it done.
 * A start that waited too long for the others, or a database that belongs
 * to the other kind of shop (demo or production), exits 1 with the reason.
 * @param {string} databaseUrl
 * @param {{ demo: boolean }} options
 */
export async function migrateAndSeed(databaseUrl, { demo }) {
  try {
    await withStartupLock(databaseUrl, async (client) => {
      const applied = await migrate(client);
      if (applied.length > 0) console.log(`Applied ${applied.join(", ")}.`);
      try {
        seed(demo);
      } catch (error) {
        if (/** @type {{ status?: number }} */ (error).status === 2) throw new DatabaseRefused();
        throw error;
      }
      for (const { table, changed, vacuumed } of await vacuumStaleTables(client)) {
        const rows = `${changed.toLocaleString("en-US")} rows changed since its statistics were taken`;
        console.log(vacuumed ? `Vacuumed and analyzed ${table}: ${rows}.` : `Left ${table} to autovacuum, already at work on it: ${rows}.`);
      }
    });
  } catch (error) {
    if (error instanceof DatabaseRefused) process.exit(1);
    if (!(error instanceof StartupLockTimeoutError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // On its own (npm run setup, npm run dev): build, then migrate and seed, starting the embedded database for the while.
  const { chooseDatabase } = await import("./database.mjs");
  mkdirSync("var", { recursive: true });
  if (process.env.SKIP_BUILD !== "true") buildIfStale();
  const database = await chooseDatabase();
  const opened = await database.open();
  try {
    await migrateAndSeed(database.url, { demo: (process.env.NODE_ENV ?? "") !== "production" });
  } finally {
    await opened.release();
  }
}
