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
/** @returns {import("express").RequestHandler} */
export function compressResponses() {
  const compress = compression();
  return (req, res, next) =>
    compress(req, res, (error) => {
      if (error) return next(error);
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
            if (!res.writableEnded) flush.call(res);
          });
        };
      }
      next();
    });
}
