import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/** A file's fingerprint as its URL carries it: the first ten hex digits of its content's SHA-256. */
export function contentFingerprint(content: Uint8Array) {
  return createHash("sha256").update(content).digest("hex").slice(0, 10);
}

/**
 * Fingerprinted URLs for files in public/: `/images/products/bar.svg` becomes
 * `/images/products/bar.3f2a1b9c0d.svg`, the first ten hex digits of the
 * file's SHA-256. The server (server/immutable-assets.mjs) serves such a URL
 * with a year's immutable caching while the content matches, so a changed
 * image gets a new URL and browsers never keep an old one. The plain URL keeps
 * working. Each file is read once per process.
 */
const fingerprinted = new Map<string, string>();

export function fingerprintedUrl(url: string) {
  let result = fingerprinted.get(url);
  if (result === undefined) {
    result = url;
    const match = /^(\/images\/.+)(\.[a-z0-9]+)$/i.exec(url);
    if (match && !url.includes("..")) {
      try {
        result = `${match[1]}.${contentFingerprint(readFileSync(path.join("public", url)))}${match[2]}`;
      } catch {
        // Not a file we have (yet): the plain URL, served as it is.
      }
    }
    fingerprinted.set(url, result);
  }
  return result;
}
