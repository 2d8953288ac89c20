// Preloaded with `node --import` by tests/e2e/production-modules.spec.ts: writes
// every module the process loads to the file MODULE_LIST names, one URL or
// path a line: ES modules as they resolve (a hook, in Node's loader thread),
// CommonJS ones from the require cache when the process exits.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const list = process.env.MODULE_LIST;
if (list) {
  register("./module-hooks.mjs", import.meta.url, { data: { list } });
  const require = createRequire(import.meta.url);
  process.on("exit", () => {
    const cache = /** @type {Record<string, unknown>} */ (require.cache);
    appendFileSync(
      list,
      Object.keys(cache)
        .map((path) => `${path}\n`)
        .join(""),
    );
  });
}
