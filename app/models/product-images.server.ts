import { createHash } from "node:crypto";
import sharp from "sharp";
import type { Prisma } from "~/generated/prisma/client";
import { PRODUCT_IMAGE_HEIGHT, PRODUCT_IMAGE_WIDTH, PRODUCT_IMAGE_WIDTHS, productImageHeight, productImageUrl } from "~/lib/product-images";
import { db } from "~/utils/db.server";

/**
 * The owner's product pictures (decision 065): an upload is judged by its
 * bytes (never its name or declared type), made into the widths the shop
 * serves, and kept in PostgreSQL (ProductImage), so every instance serves the
 * same bytes; each instance keeps the ones it served lately in memory.
 */

/** The largest picture taken, in bytes of the upload. */
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
/** The most pixels a picture may decode to: a 48-megapixel phone photo passes, a decompression bomb does not. */
export const MAX_PICTURE_PIXELS = 50_000_000;
/** The smallest picture taken, after its 4:3 crop: the shop shows it 800 wide. */
export const MIN_PICTURE_WIDTH = PRODUCT_IMAGE_WIDTH;
export const MIN_PICTURE_HEIGHT = PRODUCT_IMAGE_HEIGHT;

const WEBP_QUALITY = 80;

export type PictureFormat = "jpeg" | "png" | "webp";

/** What the bytes are, by their signature: JPEG, PNG or WebP; anything else (an SVG, a GIF, text) is null and never reaches the decoder. */
export function sniffPictureFormat(bytes: Uint8Array): PictureFormat | null {
  const starts = (offset: number, signature: readonly number[]) => signature.every((byte, index) => bytes[offset + index] === byte);
  if (starts(0, [0xff, 0xd8, 0xff])) return "jpeg";
  if (starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  // "RIFF", four bytes of length, "WEBP".
  if (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50])) return "webp";
  return null;
}

export type PictureVariant = { id: string; width: number; height: number; contentType: "image/webp"; bytes: Buffer };

export type PreparedPicture = {
  /** The first 16 hex digits of the upload's SHA-256: the same upload is the same files. */
  fingerprint: string;
  /** The URL a product's `image` holds (its PRODUCT_IMAGE_WIDTH file), and that file's size. */
  image: string;
  imageWidth: number;
  imageHeight: number;
  variants: PictureVariant[];
};

export type PictureRefusal = {
  ok: false;
  /** `too-large` in bytes (413), `not-a-picture` (415: not JPEG, PNG or WebP), `unreadable`, `too-many-pixels` or `too-small` (400). */
  reason: "too-large" | "not-a-picture" | "unreadable" | "too-many-pixels" | "too-small";
  message: string;
};

const MB = 1024 * 1024;

/**
 * Judges an upload and makes the shop's files from it: turned upright (EXIF
 * orientation), cropped to 4:3 around its most interesting part, stripped of
 * its metadata (EXIF, GPS: sharp writes none unless asked), and encoded as
 * WebP at each of PRODUCT_IMAGE_WIDTHS.
 */
export async function preparePicture(upload: Uint8Array): Promise<({ ok: true } & PreparedPicture) | PictureRefusal> {
  if (upload.byteLength > MAX_PICTURE_BYTES) {
    return { ok: false, reason: "too-large", message: `The picture is ${(upload.byteLength / MB).toFixed(1)} MB: pictures can be at most 5 MB.` };
  }
  const format = sniffPictureFormat(upload);
  if (!format) return { ok: false, reason: "not-a-picture", message: "The picture must be a JPEG, PNG or WebP image." };
  const bytes = Buffer.from(upload.buffer, upload.byteOffset, upload.byteLength);
  const options = { limitInputPixels: MAX_PICTURE_PIXELS, failOn: "error" } as const;

  let metadata: sharp.Metadata;
  try {
    // The header only, nothing decoded: read without the pixel limit, so a picture over it is told its size below.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: "unreadable", message: "The picture could not be read. Please export it again as a JPEG, PNG or WebP image." };
  }
  // The signature and the decoder must agree: a PNG signature on something else is not a PNG.
  if (metadata.format !== format || !metadata.width || !metadata.height) {
    return { ok: false, reason: "unreadable", message: "The picture could not be read. Please export it again as a JPEG, PNG or WebP image." };
  }
  // Judged from the header, before anything is decoded.
  if (metadata.width * metadata.height > MAX_PICTURE_PIXELS) {
    return {
      ok: false,
      reason: "too-many-pixels",
      message: `The picture is ${metadata.width} × ${metadata.height} pixels: at most ${MAX_PICTURE_PIXELS / 1_000_000} megapixels, please.`,
    };
  }
  // Orientations 5 to 8 are a quarter turn: the picture stands the other way up.
  const turned = (metadata.orientation ?? 1) >= 5;
  const width = turned ? metadata.height : metadata.width;
  const height = turned ? metadata.width : metadata.height;
  const cropWidth = Math.min(width, Math.floor((height * PRODUCT_IMAGE_WIDTH) / PRODUCT_IMAGE_HEIGHT));
  if (cropWidth < MIN_PICTURE_WIDTH) {
    return {
      ok: false,
      reason: "too-small",
      message: `The picture is ${width} × ${height} pixels: it must be at least ${MIN_PICTURE_WIDTH} × ${MIN_PICTURE_HEIGHT} so that it looks sharp on the shop.`,
    };
  }

  try {
    // Decoded once, to the largest width (uncompressed); the other widths are made from that.
    const largest = PRODUCT_IMAGE_WIDTHS[PRODUCT_IMAGE_WIDTHS.length - 1]!;
    const { data, info } = await sharp(bytes, options)
      .rotate()
      .resize(largest, productImageHeight(largest), { fit: "cover", position: sharp.strategy.attention })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
    const fingerprint = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
    const variants = await Promise.all(
      PRODUCT_IMAGE_WIDTHS.map(async (variantWidth) => ({
        id: `${fingerprint}-${variantWidth}`,
        width: variantWidth,
        height: productImageHeight(variantWidth),
        contentType: "image/webp" as const,
        bytes: await sharp(data, raw).resize(variantWidth, productImageHeight(variantWidth)).webp({ quality: WEBP_QUALITY }).toBuffer(),
      })),
    );
    return {
      ok: true,
      fingerprint,
      image: productImageUrl(fingerprint, PRODUCT_IMAGE_WIDTH),
      imageWidth: PRODUCT_IMAGE_WIDTH,
      imageHeight: PRODUCT_IMAGE_HEIGHT,
      variants,
    };
  } catch {
    // Truncated or corrupt past its header.
    return { ok: false, reason: "unreadable", message: "The picture could not be read. Please export it again as a JPEG, PNG or WebP image." };
  }
}

/** Keeps a prepared picture's files, in the caller's transaction; the same upload again adds nothing. */
export async function storePicture(tx: Prisma.TransactionClient, picture: PreparedPicture) {
  await tx.productImage.createMany({
    data: picture.variants.map(({ id, width, height, contentType, bytes }) => ({ id, width, height, contentType, bytes: new Uint8Array(bytes) })),
    skipDuplicates: true,
  });
}

export type StoredImage = { id: string; contentType: string; bytes: Uint8Array<ArrayBuffer> };

/**
 * The files this instance served lately, least recently used first out, up to
 * CACHE_MAX_BYTES: a file never changes under its id, so nothing here is ever
 * stale, and a picture on every shop page costs the database one read per
 * instance rather than one per visitor.
 */
const CACHE_MAX_BYTES = 16 * MB;
const cache = new Map<string, StoredImage>();
let cachedBytes = 0;

function remember(image: StoredImage) {
  if (image.bytes.byteLength > CACHE_MAX_BYTES / 4) return;
  cache.set(image.id, image);
  cachedBytes += image.bytes.byteLength;
  for (const [id, oldest] of cache) {
    if (cachedBytes <= CACHE_MAX_BYTES) break;
    cache.delete(id);
    cachedBytes -= oldest.bytes.byteLength;
  }
}

/** One stored file by its id (`<fingerprint>-<width>`), or null. */
export async function readProductImage(id: string): Promise<StoredImage | null> {
  const cached = cache.get(id);
  if (cached) {
    // Most recently used: to the back of the line.
    cache.delete(id);
    cache.set(id, cached);
    return cached;
  }
  const row = await db.productImage.findUnique({ where: { id }, select: { id: true, contentType: true, bytes: true } });
  if (!row) return null;
  const image = { ...row, bytes: new Uint8Array(row.bytes) };
  remember(image);
  return image;
}
