// subset-font ships no types; this is the part scripts/subset-fonts.mjs and app/lib/fonts.test.ts use.
declare module "subset-font" {
  type Options = {
    targetFormat?: "sfnt" | "woff" | "woff2";
    keepFeatures?: string[];
    variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
    dropTables?: string[];
  };
  export default function subsetFont(font: Buffer, text: string, options?: Options): Promise<Buffer>;
}
