// The Remix build the server serves, and what the app hands the HTTP edge
// through its entry module (app/entry.server.tsx, which re-exports
// app/process.server.ts; decision 092): the settings parsed by the one
// environment schema, the logger, the text rule, the catalogue version, the
// background work's start and stop.
import { statSync, watch } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** @typedef {typeof import("../app/entry.server")} ShopEntry */
/** @typedef {import("@remix-run/node").ServerBuild & { entry: { module: ShopEntry } }} ShopBuild */

export const BUILD_PATH = path.resolve("build/index.js");

/**
 * Imports the build; `fresh` gets a new module instance (a rebuild in
 * development). The app checks its settings as it loads
 * (app/utils/env.server.ts): a bad setting ends the process with the
 * schema's message, one line per problem, without a stack trace.
 *
 * @param {{ fresh?: boolean }} [options]
 * @returns {Promise<ShopBuild>}
 */
export async function importBuild({ fresh = false } = {}) {
  const url = pathToFileURL(BUILD_PATH);
  if (fresh) url.searchParams.set("t", String(statSync(BUILD_PATH).mtimeMs));
  try {
    return await import(url.href);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("Invalid environment:")) throw error;
    // No logger exists before the settings do.
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * `npm run dev`: calls `onBuild` with each new build, once its files have
 * settled for 100 ms.
 *
 * @param {(build: ShopBuild) => void} onBuild
 */
export function watchBuild(onBuild) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  watch(path.dirname(BUILD_PATH), () => {
    clearTimeout(timer);
    timer = setTimeout(() => void importBuild({ fresh: true }).then(onBuild), 100);
  });
}
