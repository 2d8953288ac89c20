// subset-font 2.9 ships no types. Its one function, as its README describes
// it; what scripts/subset-fonts.mjs uses.
declare module "subset-font" {
  interface SubsetFontOptions {
    targetFormat?: "sfnt" | "woff" | "woff2" | "truetype";
    preserveNameIds?: number[];
    /** Four-character OpenType feature tags to keep; `[]` drops them all (by default all are kept). */
    keepFeatures?: string[];
    /** Each axis pinned to a value, or limited to a range (with an optional default). */
    variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
    keepAllGlyphs?: boolean;
    noLayoutClosure?: boolean;
    glyphNames?: boolean;
    noHinting?: boolean;
    /** Four-character SFNT table tags to drop. */
    dropTables?: string[];
  }
  function subsetFont(font: Buffer, text: string | null | undefined, options?: SubsetFontOptions): Promise<Buffer>;
  export default subsetFont;
}
