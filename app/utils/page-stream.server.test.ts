import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { endedOnce } from "./page-stream.server";

afterEach(() => vi.restoreAllMocks());

/**
 * Renders a small page into the stream `make` makes, as app/entry.server.tsx
 * does: the page, and for each time the stream's own end() ran, whether the
 * stream had finished already (Node then makes an error for it).
 */
async function render(make: () => PassThrough) {
  const ends: boolean[] = [];
  const end = PassThrough.prototype.end;
  vi.spyOn(PassThrough.prototype, "end").mockImplementation(function (this: PassThrough, ...args: unknown[]) {
    ends.push(this.writableFinished || this.destroyed);
    return (end as (...rest: unknown[]) => PassThrough).apply(this, args);
  });
  const body = make();
  const page = text(body);
  await new Promise<void>((resolve) => {
    const { pipe } = renderToPipeableStream(createElement("main", null, "Chill PB"), {
      onShellReady() {
        pipe(body);
        resolve();
      },
    });
  });
  return { page: await page, ends };
}

describe("the stream a page is rendered into", () => {
  it("reproduces React ending its destination twice, the second time a finished stream", async () => {
    const { page, ends } = await render(() => new PassThrough());
    expect(page).toBe("<main>Chill PB</main>");
    expect(ends).toEqual([false, true]);
  });

  it("passes on only the first end: the page is whole and no error is made", async () => {
    const { page, ends } = await render(() => endedOnce(new PassThrough()));
    expect(page).toBe("<main>Chill PB</main>");
    expect(ends).toEqual([false]);
  });
});
