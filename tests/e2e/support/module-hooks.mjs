// Module hooks for record-modules.mjs: runs in Node's loader thread.
import { appendFileSync } from "node:fs";

/** @type {string} */
let list = "";

/** @param {{ list: string }} data */
export function initialize(data) {
  list = data.list;
}

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(list, `${resolved.url}\n`);
  return resolved;
}
