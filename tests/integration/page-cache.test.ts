import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PageStore, compressParts, fillNonce, gzipWithNonce, splitAtNonce } from "../../server/page-cache.mjs";

const nonceA = "Ab3+/Zx9Qw1Er5Ty7Ui0Op==";
const nonceB = "Zz9+/Yy8Xx7Ww6Vv5Uu4Tt==";

function page(nonce: string) {
  const products = Array.from({ length: 200 }, (_, index) => `<article><h3>Bar ${index * 7919}</h3><p>Creamy organic Greek yogurt swirled with peanut butter, batch ${(index * 104729) % 9973}.</p></article>`);
  return (
    `<!DOCTYPE html><html><head><title>Shop</title></head><body>${products.join("")}` +
    `<script nonce="${nonce}">restore()</script><script nonce="${nonce}">window.__remixContext = ${JSON.stringify({ products })};</script>` +
    `<script nonce="${nonce}" type="module">import("/build/entry.js")</script></body></html>`
  );
}

describe("a cached page and its nonce (server/page-cache.mjs)", () => {
  it("is filled with each response's own nonce, as HTML and as gzip, and gzips about as small as the whole page", () => {
    const parts = splitAtNonce(page(nonceA), nonceA);
    expect(parts).toHaveLength(4);
    const compressed = compressParts(parts!, nonceA.length);
    expect(fillNonce(parts!, nonceB).toString()).toBe(page(nonceB));
    const gzip = gzipWithNonce(parts!, compressed, nonceB);
    expect(gunzipSync(gzip).toString()).toBe(page(nonceB));
    expect(gzip.length).toBeLessThan(gzipSync(page(nonceB)).length * 1.1);
  });

  it("is not kept when the nonce is missing or appears outside a nonce attribute", () => {
    expect(splitAtNonce("<html><script>x</script></html>", nonceA)).toBeNull();
    expect(splitAtNonce(`<html><script nonce="${nonceA}">x</script><p>${nonceA}</p></html>`, nonceA)).toBeNull();
    expect(splitAtNonce(page(nonceA), "")).toBeNull();
  });
});

describe("the page store", () => {
  const entry = (version: number, bytes: number) => ({ version, headers: [], parts: [], gzipParts: [], nonceLength: 24, bytes });

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
