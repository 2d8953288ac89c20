// Makes a fresh clone runnable: builds the app when its sources are newer
// than the build, applies database migrations and seeds the catalogue.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const run = (command, args) => execFileSync(command, args, { stdio: "inherit", env: process.env });
const bin = (name) => path.resolve("node_modules/.bin", name);

function newestMtime(dir) {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

mkdirSync("var", { recursive: true });

const stale = (output, sources) =>
  !existsSync(output) || Math.max(...sources.map((source) => newestMtime(source))) > statSync(output).mtimeMs;

if (process.env.SKIP_BUILD !== "true") {
  // mocks/ is bundled into the server build too: the demo's stand-ins and their payment page.
  if (stale("build/index.js", ["app", "mocks", "remix.config.js"])) {
    console.log("Building the shop…");
    run(bin("remix"), ["build"]);
  }
  // app/lib is in the admin's sources too: it imports the shop's vocabulary through its @shop alias.
  if (stale("admin/dist/index.html", ["admin/src", "admin/index.html", "admin/vite.config.ts", "app/lib"])) {
    console.log("Building the admin app…");
    run(bin("vite"), ["build", "--config", "admin/vite.config.ts", "--logLevel", "warn"]);
  }
}

function seed() {
  run(bin("tsx"), ["prisma/seed.ts"]);
  // The demo (npm start without NODE_ENV=production) gets a demo admin and sample orders.
  if (process.env.NODE_ENV !== "production") run(bin("tsx"), ["prisma/seed-demo.ts"]);
}

const databaseUrl = process.env.DATABASE_URL ?? "";
if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
  // Instances starting together take turns: the first migrates and seeds, the rest find it done.
  const { migratePostgres, withStartupLock, StartupLockTimeoutError } = await import("./migrate-postgres.mjs");
  try {
    await withStartupLock(databaseUrl, async (client) => {
      const applied = await migratePostgres(client);
      if (applied.length > 0) console.log(`Applied ${applied.join(", ")}.`);
      seed();
    });
  } catch (error) {
    if (!(error instanceof StartupLockTimeoutError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
} else {
  run(bin("prisma"), ["migrate", "deploy"]);
  seed();
}
