// Makes a fresh clone runnable: builds the app when its sources are newer
// than the build, applies database migrations and seeds the catalogue.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const run = (command, args) => execFileSync(command, args, { stdio: "inherit", env: process.env });
const bin = (name) => path.resolve("node_modules/.bin", name);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

mkdirSync("var", { recursive: true });

const buildFile = "build/index.js";
const sourcesChanged =
  !existsSync(buildFile) ||
  Math.max(newestMtime("app"), statSync("remix.config.js").mtimeMs) > statSync(buildFile).mtimeMs;
if (sourcesChanged && process.env.SKIP_BUILD !== "true") {
  console.log("Building the shop…");
  run(bin("remix"), ["build"]);
}

run(bin("prisma"), ["migrate", "deploy"]);
run(bin("tsx"), ["prisma/seed.ts"]);
