import { crc32, gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NONCE, PageStore, crc32Combine, fillPage, gzipPage, splitPage } from "../../server/page-cache.mjs";

const nonceA = "Ab3+/Zx9Qw1Er5Ty7Ui0Op==";
const nonceB = "Zz9+/Yy8Xx7Ww6Vv5Uu4Tt==";

const anonymous = ['data-count="0"', '{"cart":{"lines":[]},'];
const visitor = ['data-count="12"', '{"cart":{"lines":[{"id":"bar-banana-pb","quantity":12,"name":"Banana Blast \\u0026 more"}]},'];

function page(nonce: string, parts = anonymous) {
  const products = Array.from(
    { length: 200 },
    (_, index) =>
      `<article><h3>Bar ${index * 7919}</h3><p>Creamy organic Greek yogurt swirled with peanut butter, batch ${(index * 104729) % 9973}.</p></article>`,
  );
  return (
    `<!DOCTYPE html><html><head><title>Shop</title></head><body><a href="/cart" ${parts[0]}>Cart</a>${products.join("")}` +
    `<script nonce="${nonce}">restore()</script><script nonce="${nonce}">window.__remixContext = ${parts[1]}${JSON.stringify({ products })}};</script>` +
    `<script nonce="${nonce}" type="module">import("/build/entry.js")</script></body></html>`
  );
}

const buffers = (texts: string[]) => texts.map((text) => Buffer.from(text));
const cut = (template: { parts: Buffer[]; slots: number[] }) => ({
  ...template,
  compressed: new Map<string, Buffer>(),
  compressedBytes: 0,
  compressedLimit: 1024 * 1024,
});

describe("a cached page, its nonce and a visitor's parts (server/page-cache.mjs)", () => {
  it("is filled with each response's own nonce, as HTML and as gzip, and gzips about as small as the whole page", () => {
    const template = splitPage(page(nonceA), nonceA)!;
    expect(template.parts).toHaveLength(4);
    expect(template.slots).toEqual([NONCE, NONCE, NONCE]);
    expect(fillPage(template, nonceB, []).toString()).toBe(page(nonceB));
    const gzip = gzipPage(cut(template), nonceB, []);
    expect(gunzipSync(gzip).toString()).toBe(page(nonceB));
    expect(gzip.length).toBeLessThan(gzipSync(page(nonceB)).length * 1.1);
  });

  it("becomes a visitor's own page with their parts in place of a visitor's without a cart, as HTML and as gzip", () => {
    const template = splitPage(page(nonceA), nonceA, anonymous)!;
    expect(template.parts).toHaveLength(6);
    expect(template.slots).toEqual([0, NONCE, NONCE, 1, NONCE]);
    expect(template.personalisable).toBe(true);
    expect(fillPage(template, nonceB, buffers(visitor)).toString()).toBe(page(nonceB, visitor));
    const visitorPage = cut(template);
    const gzip = gzipPage(visitorPage, nonceB, buffers(visitor));
    expect(gunzipSync(gzip).toString()).toBe(page(nonceB, visitor));
    expect(gzip.length).toBeLessThan(gzipSync(page(nonceB, visitor)).length * 1.1);
    // The same page for another visitor's texts of other lengths, and for a visitor without a cart.
    const other = ['data-count="3"', '{"cart":{"lines":[{"id":"bar-banana-pb","quantity":3}]},'];
    expect(gunzipSync(gzipPage(visitorPage, nonceA, buffers(other))).toString()).toBe(page(nonceA, other));
    expect(gunzipSync(gzipPage(visitorPage, nonceA, buffers(anonymous))).toString()).toBe(page(nonceA));
  });

  it("keeps compressed parts for the lengths visitors' texts have had, within its limit", () => {
    const visitorPage = { ...cut(splitPage(page(nonceA), nonceA, anonymous)!), compressedLimit: 4_000 };
    for (let quantity = 1; quantity <= 40; quantity += 1) {
      const texts = [`data-count="${quantity}"`, `{"cart":{"lines":[{"id":"bites-banana","quantity":${quantity}${" ".repeat(quantity)}}]},`];
      expect(gunzipSync(gzipPage(visitorPage, nonceB, buffers(texts))).toString()).toBe(page(nonceB, texts));
      expect(visitorPage.compressedBytes).toBeLessThanOrEqual(4_000);
    }
    const before = visitorPage.compressed.size;
    gzipPage(visitorPage, nonceB, buffers([`data-count="40"`, `{"cart":{"lines":[{"id":"bites-banana","quantity":40${" ".repeat(40)}}]},`]));
    expect(visitorPage.compressed.size).toBe(before);
  });

  it("is not personalisable when a visitor's part is missing, repeated or overlaps another, and still serves its nonce", () => {
    const cases = [
      page(nonceA).replace(anonymous[0]!, "").replace(anonymous[1]!, "{"),
      page(nonceA).replace("</body>", `<p ${anonymous[0]}></p></body>`),
      page(nonceA, ['data-count="0" nonce', anonymous[1]!]),
    ];
    for (const html of cases) {
      const template = splitPage(html, nonceA, [...anonymous, 'count="0" nonce'])!;
      expect(template.personalisable).toBe(false);
      expect(template.slots.every((slot) => slot === NONCE)).toBe(true);
      expect(fillPage(template, nonceA, []).toString()).toBe(html);
    }
  });

  it("is not kept when the nonce is missing or appears outside a nonce attribute", () => {
    expect(splitPage("<html><script>x</script></html>", nonceA)).toBeNull();
    expect(splitPage(`<html><script nonce="${nonceA}">x</script><p>${nonceA}</p></html>`, nonceA)).toBeNull();
    expect(splitPage(page(nonceA), "")).toBeNull();
  });
});

describe("the page store", () => {
  const entry = (version: number, bytes: number) => ({ version, headers: [], shared: cut({ parts: [], slots: [] }), visitor: null, nonceLength: 24, bytes });

  it("answers only for the version a page was rendered at", () => {
    const store = new PageStore();
    store.set("/shop", entry(3, 10));
    expect(store.get("/shop", 4)).toBeNull();
    // A miss for a newer version drops the old page.
    expect(store.get("/shop", 3)).toBeNull();
    store.set("/shop", entry(4, 10));
    expect(store.get("/shop", 4)).toMatchObject({ version: 4 });
  });

  it("stays within its bounds, least recently used out first", () => {
    const store = new PageStore({ maxBytes: 100, maxEntries: 3, maxEntryBytes: 60 });
    store.set("/a", entry(1, 30));
    store.set("/b", entry(1, 30));
    store.set("/c", entry(1, 30));
    store.get("/a", 1);
    store.set("/d", entry(1, 30));
    expect(store.get("/b", 1)).toBeNull();
    expect(store.get("/a", 1)).not.toBeNull();
    store.set("/big", entry(1, 61));
    expect(store.get("/big", 1)).toBeNull();
    store.set("/e", entry(1, 50));
    expect(store.bytes).toBeLessThanOrEqual(100);
    expect(store.entries.size).toBeLessThanOrEqual(3);
  });
});

describe("crc32Combine (the gzip trailer's CRC from the parts' own)", () => {
  it("is the CRC-32 of the two parts joined, whatever their bytes and lengths", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 70_000 }), (a, b) => {
        expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
      }),
      { numRuns: 200 },
    );
  });

  it("leaves a CRC as it is after nothing, and gives the second part's CRC after nothing", () => {
    const bytes = Buffer.from("frozen peanut butter");
    expect(crc32Combine(crc32(bytes), 0, 0)).toBe(crc32(bytes));
    expect(crc32Combine(0, crc32(bytes), bytes.length)).toBe(crc32(bytes));
  });
});
