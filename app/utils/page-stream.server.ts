import type { PassThrough } from "node:stream";

/**
 * The stream a page is rendered into, ended once. React 18 ends its
 * destination twice once a page is whole, and each end() of a finished
 * stream makes an error object with its stack trace, passed to no one (1.3%
 * of a rendered page's CPU): the second call is dropped.
 */
export function endedOnce(stream: PassThrough): PassThrough {
  const end = stream.end;
  let ended = false;
  stream.end = function endOnce(this: PassThrough, ...args: unknown[]) {
    if (ended) return this;
    ended = true;
    return (end as (...rest: unknown[]) => PassThrough).apply(this, args);
  } as PassThrough["end"];
  return stream;
}
