import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import subsetFont from "subset-font";
import { describe, expect, it } from "vitest";
import { fontFiles } from "~/lib/fonts";

/** The number of glyphs in a font (its maxp table). */
function glyphCount(sfnt: Buffer) {
  const tables = sfnt.readUInt16BE(4);
  for (let index = 0; index < tables; index++) {
    const entry = 12 + 16 * index;
    if (sfnt.toString("latin1", entry, entry + 4) === "maxp") return sfnt.readUInt16BE(sfnt.readUInt32BE(entry + 8) + 4);
  }
  throw new Error("no maxp table");
}

/** Whether the font draws this character: cut down to it, it keeps more than .notdef. */
async function draws(font: Buffer, character: string) {
  return glyphCount(await subsetFont(font, character, { targetFormat: "sfnt", keepFeatures: [] })) > 1;
}

function* sourceFiles(file: string): Generator<string> {
  if (!statSync(file).isDirectory()) return yield file;
  for (const entry of readdirSync(file)) if (!/\.test\.tsx?$/.test(entry)) yield* sourceFiles(path.join(file, entry));
}

/** Every character the storefront's sources write, but for the marks only code uses. */
function storefrontCharacters() {
  const characters = new Set("£$€’“”–—…0123456789");
  for (const source of ["app/components", "app/routes", "app/lib", "prisma/catalogue.ts"]) {
    for (const file of sourceFiles(source)) for (const character of readFileSync(file, "utf8")) characters.add(character);
  }
  for (const code of "{}`~^\\\n\r\t") characters.delete(code);
  return [...characters].sort();
}

const served = (url: string) => readFileSync(path.join("public", url));
const source = (family: string) => readFileSync(`fonts-src/${family}-latin-wght.woff2`);

describe("the web fonts (scripts/subset-fonts.mjs)", () => {
  it("are two files, one per family, named in fonts.css and weighing 30 kB or less together", () => {
    const css = readFileSync("public/fonts.css", "utf8");
    const urls = Object.values(fontFiles);
    expect([...css.matchAll(/url\("([^"]+)"\)/g)].map((match) => match[1])).toEqual(urls);
    expect(urls.reduce((total, url) => total + served(url).length, 0)).toBeLessThanOrEqual(30_000);
  });

  it("Nunito draws every character of the storefront that the full font has", async () => {
    const nunito = served(fontFiles.nunito);
    const full = source("nunito");
    const missing: string[] = [];
    for (const character of storefrontCharacters()) {
      if ((await draws(full, character)) && !(await draws(nunito, character))) missing.push(character);
    }
    expect(missing).toEqual([]);
  });

  it("Fredoka draws what headings, prices and the logo write (anything else falls back to Nunito)", async () => {
    const fredoka = served(fontFiles.fredoka);
    const missing: string[] = [];
    for (const character of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 !&'(),-./:?$%+×–—’“”…") {
      if (!(await draws(fredoka, character))) missing.push(character);
    }
    expect(missing).toEqual([]);
  });
});
