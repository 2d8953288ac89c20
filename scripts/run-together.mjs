#!/usr/bin/env node
// `node scripts/run-together.mjs typecheck lint`: the npm scripts named, run at
// once (`npm test` checks types and lint side by side: neither waits for the
// other on two cores, decision 090). Each one's output is printed whole once it
// ends, so the two never interleave, with how long it took; any failure fails
// the whole.
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) throw new Error("Name the npm scripts to run, e.g. node scripts/run-together.mjs typecheck lint");

/** @param {string} name @returns {Promise<number>} the script's exit code */
function run(name) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn("npm", ["run", name], { stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      const seconds = Math.round((performance.now() - started) / 1000);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`== npm run ${name}: ${code === 0 ? "passed" : `failed (exit ${code})`} in ${seconds} s\n`);
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(names.map(run));
process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
