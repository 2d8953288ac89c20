// Serves the compressed copies scripts/precompress.mjs made at build time
// (decision 056): Brotli when the browser takes it, else gzip, else the file;
// always with `Vary: Accept-Encoding`. The per-request compressor skips a
// response that already has a Content-Encoding, so these files are never
// compressed again.
import { stat } from "node:fs/promises";
import path from "node:path";

/**
 * @param {string} root the folder the mount point's files are in
 * @param {{ maxAge?: string, immutable?: boolean }} [options]
 * @returns {import("express").RequestHandler}
 */
export function precompressedAssets(root, { maxAge = "1y", immutable = true } = {}) {
  /** Whether `file` exists, by name: the names are fingerprinted, so an answer holds for the process's life. */
  /** @type {Map<string, Promise<boolean>>} */
  const known = new Map();
  const exists = (/** @type {string} */ file) => {
    let answer = known.get(file);
    if (!answer) {
      answer = stat(file).then(
        (found) => found.isFile(),
        () => false,
      );
      // A bounded memory: the asset folders hold a few hundred files.
      if (known.size < 10_000) known.set(file, answer);
    }
    return answer;
  };
  const base = path.resolve(root);
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let file;
    try {
      file = path.join(base, decodeURIComponent(req.path));
    } catch {
      return next();
    }
    if (!file.startsWith(base + path.sep)) return next();
    res.vary("Accept-Encoding");
    // Brotli first when the browser takes it, then gzip: the copies exist only where they are worth it.
    for (const [name, suffix] of /** @type {const} */ ([
      ["br", ".br"],
      ["gzip", ".gz"],
    ])) {
      if (!req.acceptsEncodings(name) || !(await exists(file + suffix))) continue;
      // The original's type, not the copy's (send keeps a Content-Type already set).
      res.type(path.extname(file));
      res.setHeader("Content-Encoding", name);
      return res.sendFile(file + suffix, { maxAge, immutable }, (error) => {
        if (!error) return;
        if (!res.headersSent) res.removeHeader("Content-Encoding");
        next();
      });
    }
    // Asked for gzip when only Brotli was worth making, or the file is not compressible: the file as it is.
    next();
  };
}
