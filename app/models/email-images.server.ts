import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { productImageHeight, uploadedImageId } from "~/lib/product-images";
import { MAX_PICTURE_PIXELS, readProductImage } from "~/models/product-images.server";
import { contentFingerprint, fingerprintedUrl } from "~/utils/fingerprint.server";

/**
 * Product pictures as email can show them (decision 102). The shop's own
 * pictures are SVG (the founding artwork) and WebP (the owner's uploads);
 * Gmail and Outlook show no SVG, and Outlook on the desktop no WebP, so a
 * campaign's cards point at a JPEG made from either, served by
 * app/routes/email-images.$file.ts as `/email-images/<key>.jpg`.
 *
 * A key names its source and carries its content's fingerprint, so a changed
 * picture gets a new URL and each one may be kept for a year:
 * - the artwork `public/images/products/<name>.svg` is `<name>.<fingerprint>`,
 *   the ten hex digits its fingerprinted URL carries (app/utils/fingerprint.server.ts);
 * - an upload's stored WebP is its id, `<fingerprint>-<width>` (app/lib/product-images.ts).
 */

/** A campaign's card is 600 pixels wide, email's usual column, at the shop's 4:3. */
const EMAIL_IMAGE_WIDTH = 600;
const EMAIL_IMAGE_HEIGHT = productImageHeight(EMAIL_IMAGE_WIDTH);
/** What shows through a transparent picture: the brand's cream, the email's own background. */
const BACKGROUND = "#fff8ef";
const JPEG_QUALITY = 82;

/** The founding artwork's folder; nothing outside it is ever read. */
const ARTWORK_FOLDER = "/images/products/";
/** An artwork's URL as the catalogue gives it, fingerprinted or not; its name is lower-case words and hyphens, never a path. */
const ARTWORK_URL = /^\/images\/products\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\.[0-9a-f]{10})?\.svg$/;
const ARTWORK_KEY = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.([0-9a-f]{10})$/;
/** The fingerprint in fingerprintedUrl's answer. */
const FINGERPRINTED_SVG = /\.([0-9a-f]{10})\.svg$/;
/** A stored upload's id: a dot in a key is the artwork's, so the two never meet. */
const UPLOAD_KEY = /^[0-9a-f]{16}-\d{2,4}$/;

const emailImagePath = (key: string) => `/email-images/${key}.jpg`;

/**
 * The path of the email-safe JPEG of a product's `image`, as the catalogue
 * gives it (the artwork's fingerprinted or plain URL, or an upload's
 * `/product-images/<fingerprint>-<width>.webp`), without the origin; null for
 * anything else, or artwork that is not on disk.
 */
export function emailImageUrl(image: string): string | null {
  const upload = uploadedImageId(image);
  if (upload) return emailImagePath(upload);
  const name = ARTWORK_URL.exec(image)?.[1];
  if (!name) return null;
  // The file's fingerprint now, whatever one the URL carried.
  const fingerprint = FINGERPRINTED_SVG.exec(fingerprintedUrl(`${ARTWORK_FOLDER}${name}.svg`))?.[1];
  return fingerprint ? emailImagePath(`${name}.${fingerprint}`) : null;
}

/** The source a key names, if it is there with that content: the artwork's SVG or the upload's WebP. */
async function sourceOf(key: string): Promise<Uint8Array | null> {
  if (UPLOAD_KEY.test(key)) return (await readProductImage(key))?.bytes ?? null;
  const [, name, fingerprint] = ARTWORK_KEY.exec(key) ?? [];
  if (!name || !fingerprint) return null;
  let svg: Buffer;
  try {
    svg = await readFile(path.join("public", ARTWORK_FOLDER, `${name}.svg`));
  } catch {
    return null;
  }
  // An old fingerprint names a picture that is no more: never the current one under a year's caching.
  return contentFingerprint(svg) === fingerprint ? svg : null;
}

async function toEmailJpeg(source: Uint8Array) {
  const bytes = await sharp(source, { limitInputPixels: MAX_PICTURE_PIXELS, failOn: "error" })
    .resize(EMAIL_IMAGE_WIDTH, EMAIL_IMAGE_HEIGHT, { fit: "cover" })
    .flatten({ background: BACKGROUND })
    .jpeg({ quality: JPEG_QUALITY, progressive: true, mozjpeg: true })
    .toBuffer();
  return new Uint8Array(bytes);
}

/**
 * The JPEGs this instance made lately, least recently used first out: a
 * campaign to thousands is fetched by each mail client and image proxy,
 * mostly within its first hour, and is rendered once. A key's JPEG never
 * changes (an upload's id is its content; the artwork changes with a
 * release, which starts new processes), so nothing here is stale; a render
 * under way is shared too. 32 JPEGs of 10 to 60 kB: a few megabytes at most.
 */
const RENDERS_KEPT = 32;
const renders = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

function keep(key: string, render: Promise<Uint8Array<ArrayBuffer>>) {
  renders.set(key, render);
  if (renders.size > RENDERS_KEPT) renders.delete(renders.keys().next().value!);
  // A failed render is tried again by the next request.
  render.catch(() => {
    if (renders.get(key) === render) renders.delete(key);
  });
}

/**
 * The email-safe JPEG a key names, 600 × 450; null when the key names nothing
 * (a malformed key, a file that is not there, an artwork whose content has
 * another fingerprint). Only a key found is kept, so made-up keys never push
 * out a campaign's pictures.
 */
export async function readEmailImage(key: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const kept = renders.get(key);
  if (kept) {
    // Most recently used: to the back of the line.
    renders.delete(key);
    renders.set(key, kept);
    return kept;
  }
  const source = await sourceOf(key);
  if (!source) return null;
  // Another request may have started it while the source was read.
  let render = renders.get(key);
  if (!render) keep(key, (render = toEmailJpeg(source)));
  return render;
}
