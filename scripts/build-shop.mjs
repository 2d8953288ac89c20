// Builds the storefront with Remix's classic compiler, with a source map for
// the server build only: Node reads build/index.js.map (server.mjs turns
// source maps on), so an error's log line names the shop's own files and lines
// (app/models/orders.server.ts:245), not build/index.js (decision 080).
// Remix makes maps for the browser's files too, and warns that they would
// publish the source: those are removed here, with the comment that points at
// them, before anything serves or compresses public/build.
//   node scripts/build-shop.mjs
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const BROWSER_BUILD = "public/build";
const MAP_COMMENT = /\n\/[/*]# sourceMappingURL=[^\n]*\s*$/;

/** Every file under `dir`. @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

export function buildShop() {
  execFileSync(path.resolve("node_modules/.bin/remix"), ["build", "--sourcemap"], { stdio: "inherit", env: process.env });
  let removed = 0;
  for (const file of filesUnder(BROWSER_BUILD)) {
    if (file.endsWith(".map")) {
      rmSync(file);
      removed++;
    } else if (file.endsWith(".js") || file.endsWith(".css")) {
      const text = readFileSync(file, "utf8");
      if (MAP_COMMENT.test(text)) writeFileSync(file, text.replace(MAP_COMMENT, "\n"));
    }
  }
  console.log(
    `Kept the server's source map (build/index.js.map: error lines name the shop's files); removed the browser's ${removed} maps from ${BROWSER_BUILD}, so no source is published.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) buildShop();
