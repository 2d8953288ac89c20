import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { env } from "~/utils/env.server";

/**
 * Which release this process runs (decision 050): package.json's version and
 * the git commit, read once at start from the release folder (the process's
 * working directory). The commit is GIT_COMMIT when set (a release folder
 * made without .git), otherwise `git rev-parse HEAD`; null when neither
 * knows. Nothing here can stop the shop from starting.
 */
export type Release = { version: string; commit: string | null };

function packageVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(path.resolve("package.json"), "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

function gitCommit(): string | null {
  if (env.GIT_COMMIT) return env.GIT_COMMIT.toLowerCase();
  try {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 2_000 }).trim();
    return /^[0-9a-f]{40}$/.test(head) ? head : null;
  } catch {
    // No git on the machine, or no repository here.
    return null;
  }
}

/** This process's release, as /healthz, /readyz and the start-up log line name it. */
export const release: Release = { version: packageVersion(), commit: gitCommit() };

/** "0.1.0 (3f2c9e1)", or "0.1.0" when the commit is not known: for log lines. */
export function describeRelease({ version, commit }: Release = release) {
  return commit ? `${version} (${commit.slice(0, 7)})` : version;
}
