#!/usr/bin/env node
// Where a V8 CPU profile's time went (`node --cpu-prof`): self time by
// package (the shop's own code, each npm package, Node's internals, garbage
// collection) and the top functions by self time.
//   node scripts/profile-summary.mjs var/profiles/…/CPU….cpuprofile [--top 20] [--skip-ms 2500]
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

/**
 * Where a function's code lives: "shop" (the app's build and server/), an npm package, Node's internals, or V8's own work.
 * @param {string} url @param {string} functionName
 */
function owner(url, functionName) {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  // The only WebAssembly the shop runs is Prisma's query compiler.
  if (url.startsWith("wasm://")) return "@prisma/client (query compiler, WebAssembly)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules !== -1) {
    const parts = url.slice(modules + "node_modules/".length).split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? "node_modules");
  }
  return "shop";
}

/**
 * @param {string} file a .cpuprofile
 * @param {{ top?: number, skipMs?: number }} [options] `skipMs`: leave out the first milliseconds of the
 *   profile (a server's start-up, before the load it was profiled for)
 */
export function summariseProfile(file, { top = 20, skipMs = 0 } = {}) {
  /** @type {import("node:inspector").Profiler.Profile} */
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const { samples, timeDeltas } = profile;
  if (!samples || !timeDeltas) throw new Error(`${file} has no samples`);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const selfUs = new Map();
  let atUs = 0;
  samples.forEach((id, index) => {
    const delta = timeDeltas[index] ?? 0;
    atUs += delta;
    if (atUs > skipMs * 1000) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  /** @type {Map<string, number>} */
  const functions = new Map();
  /** @type {Map<string, number>} */
  const owners = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) throw new Error(`${file} has a sample of node ${id}, which it does not list`);
    const { callFrame } = node;
    if (callFrame.functionName === "(idle)") continue;
    total += us;
    const where = owner(callFrame.url, callFrame.functionName);
    owners.set(where, (owners.get(where) ?? 0) + us);
    const key = `${callFrame.functionName || "(anonymous)"}  ${callFrame.url ? `${path.basename(callFrame.url)}:${callFrame.lineNumber + 1}` : ""}  [${where}]`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  /** @param {number} us */
  const share = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms`;
  const lines = [
    `busy ${(total / 1000).toFixed(0)} ms (idle left out${skipMs ? `; the first ${(skipMs / 1000).toFixed(1)} s too` : ""})`,
    "by where the code lives:",
  ];
  for (const [where, us] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`  ${share(us)}  ${where}`);
  lines.push(`top ${top} functions by self time:`);
  for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${share(us)}  ${key}`);
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    options: { top: { type: "string", default: "20" }, "skip-ms": { type: "string", default: "0" } },
    allowPositionals: true,
  });
  if (positionals.length === 0) {
    console.error("Usage: node scripts/profile-summary.mjs <file.cpuprofile> [--top N]");
    process.exit(2);
  }
  for (const file of positionals) console.log(`${file}\n${summariseProfile(file, { top: Number(values.top), skipMs: Number(values["skip-ms"]) })}\n`);
}
