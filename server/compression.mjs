// Response compression without a flush after every chunk Remix streams.
import compression from "compression";

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
      const passOn = holdWrites(res);
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

/**
 * React writes a page in hundreds of small chunks, and each write into the
 * compressor is a call into zlib (13% of a rendered page's CPU went to
 * zlib's processChunk, about 2 ms of `/checkout`'s 15). The chunks written in
 * one turn of the event loop become one write, as the flushes above become
 * one flush: the page still goes out as soon as each part of it is ready.
 * Returns what passes the held chunks on.
 *
 * @param {import("express").Response} res
 */
function holdWrites(res) {
  const write = res.write;
  const end = res.end;
  /** @type {Buffer[]} */
  let held = [];
  let heldBytes = 0;
  let scheduled = false;
  const passOn = () => {
    if (held.length === 0) return;
    const chunk = held.length === 1 ? /** @type {Buffer} */ (held[0]) : Buffer.concat(held, heldBytes);
    held = [];
    heldBytes = 0;
    /** @type {(chunk: Buffer) => boolean} */ (write).call(res, chunk);
  };
  res.write = /** @type {typeof res.write} */ (
    function heldWrite(/** @type {unknown} */ chunk, /** @type {unknown} */ encoding, /** @type {unknown} */ callback) {
      // A write that waits for its callback, or an odd one, goes as it came, after what is held.
      if (typeof encoding === "function" || typeof callback === "function" || !(typeof chunk === "string" || chunk instanceof Uint8Array)) {
        passOn();
        return write.apply(res, /** @type {any} */ (arguments));
      }
      const buffer = typeof chunk === "string" ? Buffer.from(chunk, /** @type {BufferEncoding | undefined} */ (encoding)) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
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
    function heldEnd() {
      passOn();
      return end.apply(res, /** @type {any} */ (arguments));
    }
  );
  return passOn;
}
