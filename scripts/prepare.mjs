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
  if (stale("build/index.js", ["app", "remix.config.js"])) {
    console.log("Building the shop…");
    run(bin("remix"), ["build"]);
  }
  if (stale("admin/dist/index.html", ["admin/src", "admin/index.html", "admin/vite.config.ts"])) {
    console.log("Building the admin app…");
    run(bin("vite"), ["build", "--config", "admin/vite.config.ts", "--logLevel", "warn"]);
  }
}

run(bin("prisma"), ["migrate", "deploy"]);
run(bin("tsx"), ["prisma/seed.ts"]);
// The demo (npm start without NODE_ENV=production) gets a demo admin and sample orders.
if (process.env.NODE_ENV !== "production") run(bin("tsx"), ["prisma/seed-demo.ts"]);
