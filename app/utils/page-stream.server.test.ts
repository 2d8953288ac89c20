import { PassThrough } from "node:stream";
import { Readable } from "node:stream";
import { buffer, text } from "node:stream/consumers";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { endedOnce, scriptsAfterPaint } from "./page-stream.server";

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

/** The end of a page as Remix writes it: the scripts' preload links, the context script and the module script. */
const NONCE = "q1Zx+7nZ0yW3bQk9Vd2l0A==";
const remixScripts = [
  `<main><p>Crème fraîche, naturellement 🍫</p></main>`,
  `<link rel="modulepreload" href="/build/manifest-6A8B.js"/>`,
  `<link rel="modulepreload" href="/build/entry.client-RZSK.js"/>`,
  `<link rel="modulepreload" href="/build/_shared/chunk-EFC2.js"/>`,
  `<script nonce="${NONCE}">window.__remixContext = {"state":{"loaderData":{"root":{"note":"type=\\"module\\" \\u003clink"}}}};</script>`,
  `<script nonce="${NONCE}" type="module" async="">import "/build/manifest-6A8B.js";\nimport * as route0 from "/build/root-4WLN.js";\nimport("/build/entry.client-RZSK.js");</script>`,
].join("");
const afterPaint = remixScripts
  .replaceAll(`<link rel="modulepreload"`, `<link rel="modulepreload-after-paint"`)
  .replace(` type="module" async=""`, ` type="module-after-paint" async=""`);

/** What scriptsAfterPaint makes of `page` cut into chunks at `cuts` (byte offsets). */
async function throughAfterPaint(page: Buffer, cuts: number[]) {
  const bounds = [0, ...[...new Set(cuts)].sort((a, b) => a - b), page.length];
  const chunks = bounds
    .slice(1)
    .map((end, index) => page.subarray(bounds[index], end))
    .filter((chunk) => chunk.length > 0);
  return buffer(Readable.from(chunks).pipe(scriptsAfterPaint()));
}

describe("the page's scripts after its first paint (decision 075)", () => {
  it("renames each preload link's rel and the module script's type, and changes nothing else", async () => {
    const page = await throughAfterPaint(Buffer.from(remixScripts), []);
    expect(page.toString("utf8")).toBe(afterPaint);
    expect(page.toString("utf8").match(/rel="modulepreload-after-paint"/g)).toHaveLength(3);
    // The context script's data, which may say anything, is left alone.
    expect(page.toString("utf8")).toContain(`<script nonce="${NONCE}">window.__remixContext`);
  });

  it("gives the same page however the markup and the characters are cut between chunks", async () => {
    const page = Buffer.from(remixScripts);
    const expected = Buffer.from(afterPaint);
    // Every single cut, then random sets of cuts.
    for (let cut = 1; cut < page.length; cut++) expect((await throughAfterPaint(page, [cut])).equals(expected)).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: page.length - 1 }), { maxLength: 40 }), async (cuts) => {
        expect((await throughAfterPaint(page, cuts)).equals(expected)).toBe(true);
      }),
    );
  });

  it("passes what follows the module script through as it is (a streamed part of the page)", async () => {
    const later = `<div hidden id="S:0"><link rel="modulepreload" href="/x.js"/></div>`;
    const page = await throughAfterPaint(Buffer.from(remixScripts + later), [remixScripts.length]);
    expect(page.toString("utf8")).toBe(afterPaint + later);
  });

  it("holds back nothing of a page without scripts", async () => {
    const page = `<main>Chill PB</main><p>t<`;
    expect((await throughAfterPaint(Buffer.from(page), [5, 24])).toString("utf8")).toBe(page);
  });
});
