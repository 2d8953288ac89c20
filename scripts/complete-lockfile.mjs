// Completes package-lock.json with the platform packages the registry mirror
// of this workplace does not serve, so that `npm ci` accepts the lock file.
//
// `npm ci` checks that every optional dependency named by a locked package is
// in the lock. Rollup names one native package per platform; the registry we
// install from answers 404 for most of them (it serves the Linux glibc ones),
// so `npm install` cannot write their entries and `npm ci` then refuses the
// lock ("Missing: @rollup/rollup-android-arm-eabi@ from lock file"). Each
// missing entry is added with the platform its name states, marked optional:
// npm skips it on any other platform and never needs its tarball here. See
// docs/decisions/010-lock-file.md.
//
// Run after regenerating the lock: `npm install && npm run lock:complete`.
import { readFileSync, writeFileSync } from "node:fs";

/**
 * @typedef {{ cpu: string[], os: string[], libc?: string[] }} Platform
 * @typedef {Partial<Platform> & { version?: string, license?: string, dev?: boolean, optional?: boolean, optionalDependencies?: Record<string, string> }} LockEntry
 *   the fields of a package's entry this script reads or writes
 * @typedef {{ packages: Record<string, LockEntry> }} LockFile
 */

const LOCK = "package-lock.json";
/** @type {LockFile} */
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;

/**
 * os, cpu and libc from a name such as rollup-linux-arm-musleabihf or
 * rollup-win32-x64-msvc, or squawk-cli's @squawk-cli/darwin-arm64 (its linux
 * builds are static, so they take any libc).
 *
 * @param {string} name
 * @returns {Platform | null}
 */
function platformOf(name) {
  const [, squawkOs, squawkCpu] = /^@squawk-cli\/([a-z0-9]+)-([a-z0-9]+)$/.exec(name) ?? [];
  if (squawkOs && squawkCpu) return { cpu: [squawkCpu], os: [squawkOs] };
  const [, os, cpu, abi = ""] = /^@rollup\/rollup-([a-z0-9]+)-([a-z0-9]+)(?:-([a-z0-9]+))?$/.exec(name) ?? [];
  if (!os || !cpu) return null;
  /** @type {Platform} */
  const platform = { cpu: [cpu], os: [os] };
  if (os === "linux") platform.libc = [abi.startsWith("musl") ? "musl" : "glibc"];
  return platform;
}

/** @type {string[]} */
const added = [];
/** @type {string[]} */
const unknown = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location ? `${location}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[base] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform) {
      unknown.push(`${name}@${version} (wanted by ${location || "the project"})`);
      continue;
    }
    packages[`node_modules/${name}`] = {
      version,
      ...platform,
      ...(entry.dev && { dev: true }),
      license: entry.license,
      optional: true,
    };
    added.push(`${name}@${version}`);
  }
}

if (unknown.length > 0) {
  console.error(`Optional dependencies missing from the lock that this script does not know how to add:\n  ${unknown.join("\n  ")}`);
  process.exit(1);
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length > 0 ? `Added ${added.length} platform entries: ${added.join(", ")}` : "The lock file is complete.");
