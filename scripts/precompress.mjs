// Compresses the built assets once, at build time (decision 056): next to each
// compressible file of public/build and admin/dist/assets, a
// `.br` (Brotli at its maximum quality) and a `.gz` (gzip level 9), each only
// when it is smaller than what it compresses, and the `.br` only when it is
// smaller than the `.gz`. server/precompressed-assets.mjs serves them; the
// server never compresses these files per request.
//   node scripts/precompress.mjs            (npm run build runs it)
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The fonts (public/fonts) are WOFF2, Brotli-compressed inside already: served as they are. */
export const ASSET_FOLDERS = ["public/build", "admin/dist/assets"];
/** Already compressed (woff2, images) or not worth it: left as they are. */
export const COMPRESSIBLE = /\.(js|mjs|css|svg|json|map|txt|html|ttf|otf)$/i;

/**
 * @param {string} folder
 * @returns {Generator<string>}
 */
function* files(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else if (entry.isFile()) yield file;
  }
}

/**
 * Writes (or removes) `file.br` and `file.gz` for one file; answers the sizes.
 * @param {string} file
 */
export function precompress(file) {
  const content = readFileSync(file);
  const gzip = gzipSync(content, { level: 9 });
  const brotli = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  const keepGzip = gzip.length < content.length;
  const keepBrotli = brotli.length < content.length && (!keepGzip || brotli.length < gzip.length);
  /** @type {[string, Buffer, boolean][]} */
  const copies = [
    [".gz", gzip, keepGzip],
    [".br", brotli, keepBrotli],
  ];
  for (const [suffix, data, keep] of copies) {
    if (keep) writeFileSync(file + suffix, data);
    else {
      try {
        unlinkSync(file + suffix);
      } catch {
        // There was none.
      }
    }
  }
  return { bytes: content.length, gzip: keepGzip ? gzip.length : null, brotli: keepBrotli ? brotli.length : null };
}

/** Every compressible asset whose compressed copies are missing or older than it. */
export function precompressAssets(folders = ASSET_FOLDERS) {
  let count = 0;
  for (const folder of folders) {
    for (const file of files(folder)) {
      if (!COMPRESSIBLE.test(file)) continue;
      const made = (/** @type {string} */ suffix) => {
        try {
          return statSync(file + suffix).mtimeMs >= statSync(file).mtimeMs;
        } catch {
          return false;
        }
      };
      if (made(".gz") && made(".br")) continue;
      precompress(file);
      count++;
    }
  }
  return count;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const count = precompressAssets();
  console.log(`Compressed ${count} assets in ${((Date.now() - started) / 1000).toFixed(1)} s (Brotli and gzip, once).`);
}
