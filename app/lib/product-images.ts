/**
 * The pictures the owner uploads with a product (decision 065), as the pages
 * refer to them. Browser-safe: the storefront's image component and the
 * admin read it; the server makes and serves the files
 * (app/models/product-images.server.ts, app/routes/product-images.$file.ts).
 *
 * Each upload is cropped to the shop's 4:3 artwork and kept at each of
 * PRODUCT_IMAGE_WIDTHS, as WebP, under `<fingerprint>-<width>`: the first 16
 * hex digits of the upload's SHA-256 and the width. A product's `image` is
 * its PRODUCT_IMAGE_WIDTH file; the others are its srcset.
 */

/** The widths kept: a cart line or a phone's card (400), a card at 2x or the page's picture (800), the page's picture at 2x (1200). */
export const PRODUCT_IMAGE_WIDTHS = [400, 800, 1200] as const;

/** The width a product's `image` names, and its size: the founding artwork's 800 × 600. */
export const PRODUCT_IMAGE_WIDTH = 800;
export const PRODUCT_IMAGE_HEIGHT = 600;

/** Height for a width at the artwork's 4:3. */
export const productImageHeight = (width: number) => Math.round((width * PRODUCT_IMAGE_HEIGHT) / PRODUCT_IMAGE_WIDTH);

const UPLOADED = /^\/product-images\/(([0-9a-f]{16})-\d{2,4})\.webp$/;

/** Where one width of an upload is served. */
export function productImageUrl(fingerprint: string, width: number) {
  return `/product-images/${fingerprint}-${width}.webp`;
}

/** The stored file an uploaded picture's URL names, `<fingerprint>-<width>`; null for any other URL (the founding artwork's). */
export function uploadedImageId(image: string): string | null {
  return UPLOADED.exec(image)?.[1] ?? null;
}

/** The srcset of an uploaded picture's `image` URL, every width it is kept at; null for the founding artwork (one SVG). */
export function productImageSrcSet(image: string): string | null {
  const fingerprint = UPLOADED.exec(image)?.[2];
  if (!fingerprint) return null;
  return PRODUCT_IMAGE_WIDTHS.map((width) => `${productImageUrl(fingerprint, width)} ${width}w`).join(", ");
}
