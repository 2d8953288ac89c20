// Response compression without a flush after every chunk Remix streams, and
// in one call when the whole answer is ready at once.
import zlib from "node:zlib";
import compression from "compression";
import Negotiator from "negotiator";

/**
 * Remix writes a streamed page chunk by chunk (about 2 kB each) and calls
 * `res.flush()` after every one (@remix-run/node's writeReadableStreamToWritable).
 * Each flush ends a deflate block and resets the compressor's choices, so a
 * page came out 42–47% larger than compressed whole. Here the flushes of one
 * turn of the event loop become one: the part of a page that is ready goes
 * out at once, and a deferred part still reaches the browser as soon as it
 * renders (docs/decisions/016).
 */
/** Written chunks held for one turn of the event loop are passed on at once past this many bytes. */
const HELD_BYTES = 64 * 1024;

/** @returns {import("express").RequestHandler} */
export function compressResponses() {
  const compress = compression();
  return (req, res, next) =>
    compress(req, res, (error) => {
      if (error) return next(error);
      const passOn = holdWrites(req, res);
      // Set by the compressor on the response it wraps.
      const flushable = /** @type {import("express").Response & { flush?: () => void }} */ (res);
      const flush = flushable.flush;
      if (typeof flush === "function") {
        let pending = false;
        flushable.flush = function coalescedFlush() {
          if (pending) return;
          pending = true;
          setImmediate(() => {
            pending = false;
            if (res.writableEnded) return;
            passOn();
            flush.call(res);
          });
        };
      }
      next();
    });
}

/** Answers shorter than this go uncompressed, as the `compression` middleware leaves them (its threshold). */
const THRESHOLD_BYTES = 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
/** As the `compression` middleware negotiates: Brotli when the browser takes it and gzip equally, else gzip. */
const SUPPORTED = ["br", "gzip", "identity"];
const PREFERRED = ["br", "gzip"];
/**
 * Chosen by measurement on the shop's pages (decisions 070 and 071; `npm run
 * bench`'s htmlOneShot rows). A page compressed in one call is one a visitor
 * waits for, and it fits in the connection's first flight (TCP's initial
 * window, about 14 kB) at any of these settings: `/checkout` is 4.6 kB at
 * Brotli 3 and 4.1 kB at Brotli 5, so the bytes saved save no round trip,
 * while Brotli 5 costs twice the CPU (0.40 against 0.15–0.19 ms for
 * `/checkout`, 0.6–0.85 against 0.2–0.34 ms for `/shop` with a cart).
 * Brotli 3 is also smaller than gzip 6 for less CPU. Its window is 128 kB,
 * past the largest answer compressed in one call (HELD_BYTES).
 */
export const ONE_SHOT = {
  brotli: {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 3,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 17,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  },
  gzip: { level: 6 },
};

/**
 * How a whole answer of `bytes` bytes is compressed in one call, or null when
 * it is left as it is: the `compression` middleware's own rules (a
 * compressible type, no `no-transform`, not already encoded, not a HEAD, at
 * least 1 kB, an encoding the browser accepts).
 *
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @param {number} bytes
 * @returns {"br" | "gzip" | null}
 */
export function oneShotEncoding(req, res, bytes) {
  if (bytes < THRESHOLD_BYTES || req.method === "HEAD") return null;
  if (!compression.filter(req, res)) return null;
  if (NO_TRANSFORM.test(String(res.getHeader("Cache-Control") ?? ""))) return null;
  if ((res.getHeader("Content-Encoding") ?? "identity") !== "identity") return null;
  const method = new Negotiator(req).encoding(SUPPORTED, PREFERRED);
  return method === "br" || method === "gzip" ? method : null;
}

/**
 * React writes a page in hundreds of small chunks, and each write into the
 * compressor is a call into zlib (13% of a rendered page's CPU went to
 * zlib's processChunk, about 2 ms of `/checkout`'s 15). The chunks written in
 * one turn of the event loop become one write, as the flushes above become
 * one flush: the page still goes out as soon as each part of it is ready.
 *
 * An answer that ends before anything was passed on (a page rendered within
 * one turn, a cached page, a small JSON answer) is compressed in one
 * synchronous call and sent with its length: a compression stream, made and
 * fed through zlib's thread pool, cost 0.6–0.7 ms of CPU for a 17 kB page
 * against 0.15–0.25 ms in one call (decision 070). Answers past HELD_BYTES
 * stream as before.
 * Returns what passes the held chunks on.
 *
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 */
function holdWrites(req, res) {
  const write = res.write;
  const end = res.end;
  /** @type {Buffer[]} */
  let held = [];
  let heldBytes = 0;
  let scheduled = false;
  let passedOn = false;
  const passOn = () => {
    if (held.length === 0) return;
    const chunk = held.length === 1 ? /** @type {Buffer} */ (held[0]) : Buffer.concat(held, heldBytes);
    held = [];
    heldBytes = 0;
    passedOn = true;
    /** @type {(chunk: Buffer) => boolean} */ (write).call(res, chunk);
  };
  /** @param {unknown} chunk @param {unknown} encoding */
  const toBuffer = (chunk, encoding) =>
    typeof chunk === "string"
      ? Buffer.from(chunk, /** @type {BufferEncoding | undefined} */ (encoding))
      : Buffer.from(/** @type {Uint8Array} */ (chunk).buffer, /** @type {Uint8Array} */ (chunk).byteOffset, /** @type {Uint8Array} */ (chunk).byteLength);
  const plain = (/** @type {unknown} */ chunk) => typeof chunk === "string" || chunk instanceof Uint8Array;
  res.write = /** @type {typeof res.write} */ (
    function heldWrite(/** @type {unknown} */ chunk, /** @type {unknown} */ encoding, /** @type {unknown} */ callback) {
      // A write that waits for its callback, or an odd one, goes as it came, after what is held.
      if (typeof encoding === "function" || typeof callback === "function" || !plain(chunk)) {
        passOn();
        passedOn = true;
        return write.apply(res, /** @type {any} */ (arguments));
      }
      const buffer = toBuffer(chunk, encoding);
      held.push(buffer);
      heldBytes += buffer.byteLength;
      if (heldBytes >= HELD_BYTES) passOn();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          if (!res.writableEnded) passOn();
        });
      }
      return true;
    }
  );
  res.end = /** @type {typeof res.end} */ (
    function heldEnd(/** @type {unknown} */ chunk, /** @type {unknown} */ encoding, /** @type {unknown} */ callback) {
      const last =
        typeof chunk === "function" || chunk === undefined || chunk === null
          ? null
          : plain(chunk) && typeof encoding !== "function"
            ? toBuffer(chunk, encoding)
            : undefined;
      if (!passedOn && !res.headersSent && last !== undefined) {
        const parts = last ? [...held, last] : held;
        const bytes = heldBytes + (last?.byteLength ?? 0);
        const method = bytes <= HELD_BYTES ? oneShotEncoding(req, res, bytes) : null;
        if (method) {
          const body = parts.length === 1 ? /** @type {Buffer} */ (parts[0]) : Buffer.concat(parts, bytes);
          const compressed = method === "br" ? zlib.brotliCompressSync(body, ONE_SHOT.brotli) : zlib.gzipSync(body, ONE_SHOT.gzip);
          held = [];
          heldBytes = 0;
          res.vary("Accept-Encoding");
          res.setHeader("Content-Encoding", method);
          res.setHeader("Content-Length", compressed.byteLength);
          const done = [chunk, encoding, callback].find((argument) => typeof argument === "function");
          return /** @type {(chunk: Buffer, done?: unknown) => unknown} */ (end).call(res, compressed, done);
        }
      }
      passOn();
      return end.apply(res, /** @type {any} */ (arguments));
    }
  );
  return passOn;
}
