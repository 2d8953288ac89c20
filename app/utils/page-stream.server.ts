import { Transform } from "node:stream";
import { MODULE_AFTER_PAINT, PRELOAD_AFTER_PAINT } from "~/lib/scripts-after-paint";

/**
 * The stream a page is rendered into, ended once. React 18 ends its
 * destination twice once a page is whole, and each end() of a finished
 * stream makes an error object with its stack trace, passed to no one (1.3%
 * of a rendered page's CPU): the second call is dropped.
 */
export function endedOnce(stream: Transform): Transform {
  const end = stream.end;
  let ended = false;
  stream.end = function endOnce(this: Transform, ...args: unknown[]) {
    if (ended) return this;
    ended = true;
    return (end as (...rest: unknown[]) => Transform).apply(this, args);
  } as Transform["end"];
  return stream;
}

/** Remix's markup for the page's scripts, and what it is until the page has painted (decision 075). */
const MODULE_SCRIPT = ` type="module" async=""`;
const AFTER_PAINT_REWRITES: ReadonlyArray<readonly [string, string]> = [
  [`<link rel="modulepreload"`, `<link rel="${PRELOAD_AFTER_PAINT}"`],
  [MODULE_SCRIPT, ` type="${MODULE_AFTER_PAINT}" async=""`],
];

const LONGEST_MARKUP = Math.max(...AFTER_PAINT_REWRITES.map(([from]) => from.length));

/** How many bytes at the end of `page` could begin one of the rewritten markups, to be read with the next chunk. */
function unfinishedMarkup(page: Buffer): number {
  const tail = page.toString("latin1", Math.max(0, page.length - LONGEST_MARKUP + 1));
  for (let start = 0; start < tail.length; start++) {
    const end = tail.slice(start);
    if (AFTER_PAINT_REWRITES.some(([from]) => from.startsWith(end))) return end.length;
  }
  return 0;
}

/**
 * The page with its scripts' preload links and module script renamed, so
 * that the browser fetches them once the page has painted (the starter in
 * app/lib/scripts-after-paint.ts). The markup may be cut anywhere between
 * chunks: what could be the start of it waits for the next chunk. A chunk
 * without the markup passes as it is; one with it is read as latin1, one
 * character a byte, so a UTF-8 character cut between chunks passes whole.
 */
export function scriptsAfterPaint(): Transform {
  let pending: Buffer = Buffer.alloc(0);
  let rewritten = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (rewritten) return done(null, chunk);
      let page: Buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      if (AFTER_PAINT_REWRITES.some(([from]) => page.includes(from))) {
        // Remix writes the module script after every preload link: once it is rewritten, the rest passes through.
        rewritten = page.includes(MODULE_SCRIPT);
        let text = page.toString("latin1");
        for (const [from, to] of AFTER_PAINT_REWRITES) text = text.replaceAll(from, to);
        page = Buffer.from(text, "latin1");
      }
      const held = rewritten ? 0 : unfinishedMarkup(page);
      pending = page.subarray(page.length - held);
      done(null, held > 0 ? page.subarray(0, page.length - held) : page);
    },
    flush(done) {
      done(null, pending.length > 0 ? pending : null);
    },
  });
}
