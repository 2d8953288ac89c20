// Fingerprinted files from public/images (app/utils/fingerprint.server.ts
// makes their URLs): `/images/products/bar.<hash>.svg` is public/images/products/bar.svg,
// served for a year as immutable while its content still has that hash.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

const FINGERPRINTED = /^\/images\/(.+)\.([0-9a-f]{10})(\.[a-z0-9]+)$/i;

/** @returns {import("express").RequestHandler} */
export function fingerprintedImages({ root = "public" } = {}) {
  /** @type {Map<string, Promise<string | null>>} */
  const hashes = new Map();
  const hashOf = (/** @type {string} */ file) => {
    let hash = hashes.get(file);
    if (!hash) {
      hash = readFile(file).then(
        (content) => createHash("sha256").update(content).digest("hex").slice(0, 10),
        () => null,
      );
      hashes.set(file, hash);
    }
    return hash;
  };
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const [, name, fingerprint, extension] = FINGERPRINTED.exec(req.path) ?? [];
    if (!name || !fingerprint || !extension || name.includes("..")) return next();
    const plain = `/images/${name}${extension}`;
    const file = path.join(root, plain);
    const hash = await hashOf(file);
    if (hash === null) return next();
    // An old fingerprint (the image changed since): the current file, never cached as immutable.
    if (hash !== fingerprint) return res.redirect(302, plain);
    res.sendFile(path.resolve(file), { maxAge: "1y", immutable: true });
  };
}
