import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { emailImageUrl } from "~/models/email-images.server";
import { listProducts } from "~/models/catalog.server";
import { preparePicture, storePicture } from "~/models/product-images.server";
import { loader as emailImage } from "~/routes/email-images.$file";
import { db } from "~/utils/db.server";
import { callRoute, shopRequest } from "../utils";

/**
 * The product pictures a campaign's cards show (decision 102): the artwork's
 * SVG and an upload's WebP as 600 × 450 JPEGs from /email-images/<key>.jpg,
 * kept for a year under a key that holds the source's fingerprint.
 */

const fetchImage = (path: string, headers: Record<string, string> = {}) =>
  callRoute(emailImage, shopRequest(path, { headers }), { params: { file: path.replace(/^\/email-images\//, "") } });

async function expectEmailJpeg(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("image/jpeg");
  expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
  expect(await sharp(bytes).metadata()).toMatchObject({ format: "jpeg", width: 600, height: 450, isProgressive: true, channels: 3, space: "srgb" });
  return bytes;
}

/** The colour of one pixel of a JPEG, as red, green and blue. */
async function pixel(jpeg: Buffer, x: number, y: number) {
  const { data } = await sharp(jpeg).extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  return [...data];
}

describe("GET /email-images/<key>.jpg", () => {
  it("serves a founding artwork as a 600 × 450 JPEG under its name and fingerprint, for a year", async () => {
    const bar = (await listProducts()).find((product) => product.id === "bar-chocolate-pb")!;
    const path = emailImageUrl(bar.image)!;
    const fingerprint = /\.([0-9a-f]{10})\.svg$/.exec(bar.image)?.[1];
    expect(path).toBe(`/email-images/bar-chocolate-pb.${fingerprint}.jpg`);

    const response = await fetchImage(path);
    const jpeg = await expectEmailJpeg(response);
    expect(response.headers.get("ETag")).toBe(`"bar-chocolate-pb.${fingerprint}"`);
    // The artwork's own background, not a black or white box: the SVG is drawn, not just decoded.
    const [red, green, blue] = await pixel(jpeg, 5, 5);
    expect(red).toBeGreaterThan(green!);
    expect(green).toBeGreaterThan(blue!);
    // Rendered once: the next client gets the same bytes.
    expect(Buffer.from(await (await fetchImage(path)).arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it("serves an uploaded picture's WebP as a 600 × 450 JPEG, its transparency on the shop's cream", async () => {
    // A PNG whose corners are transparent around an opaque square.
    const square = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#3f2417" } })
      .png()
      .toBuffer();
    const upload = await sharp({ create: { width: 1200, height: 900, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: square, gravity: "centre" }])
      .png()
      .toBuffer();
    const picture = await preparePicture(upload);
    if (!picture.ok) throw new Error(picture.message);
    await storePicture(db, picture);

    const path = emailImageUrl(picture.image);
    expect(path).toBe(`/email-images/${picture.fingerprint}-800.jpg`);
    const response = await fetchImage(path!);
    const jpeg = await expectEmailJpeg(response);
    expect(response.headers.get("ETag")).toBe(`"${picture.fingerprint}-800"`);
    const [red, green, blue] = await pixel(jpeg, 2, 2);
    // #fff8ef, within what JPEG keeps of it.
    expect(Math.abs(red! - 0xff)).toBeLessThanOrEqual(3);
    expect(Math.abs(green! - 0xf8)).toBeLessThanOrEqual(3);
    expect(Math.abs(blue! - 0xef)).toBeLessThanOrEqual(3);
    const [centreRed] = await pixel(jpeg, 300, 225);
    expect(centreRed).toBeLessThan(0x60);
  });

  it("answers 304 to a client that has it, with the same caching", async () => {
    const path = emailImageUrl("/images/products/bites-variety.svg")!;
    const first = await fetchImage(path);
    const etag = first.headers.get("ETag")!;
    for (const asked of [etag, `W/${etag}`, `"something-else", ${etag}`]) {
      const again = await fetchImage(path, { "If-None-Match": asked });
      expect(again.status, asked).toBe(304);
      expect(again.headers.get("ETag")).toBe(etag);
      expect(again.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      expect(await again.text()).toBe("");
    }
    expect((await fetchImage(path, { "If-None-Match": '"bites-variety.0000000000"' })).status).toBe(200);
  });

  it("answers 404, never kept, for an old fingerprint, an unknown name or upload, another folder or another format", async () => {
    const path = emailImageUrl("/images/products/bar-banana-pb.svg")!;
    const wrong = path.replace(/\.[0-9a-f]{10}\.jpg$/, ".0123456789.jpg");
    expect(wrong).not.toBe(path);
    for (const file of [
      wrong.replace("/email-images/", ""),
      "bar-banana-pb.jpg",
      "no-such-bar.0123456789.jpg",
      "0123456789abcdef-800.jpg",
      "bar-banana-pb.svg",
      path.replace("/email-images/", "").replace(/\.jpg$/, ".png"),
      // Out of the artwork's folder, whatever the encoding.
      "../og-shop.0123456789.jpg",
      "..%2Fog-shop.0123456789.jpg",
      "../../../package.0123456789.jpg",
      "/etc/passwd.0123456789.jpg",
      "images/products/bar-banana-pb.0123456789.jpg",
      "",
    ]) {
      const response = await callRoute(emailImage, shopRequest(`/email-images/${encodeURIComponent(file)}`), { params: { file } });
      expect(response.status, file).toBe(404);
      expect(response.headers.get("Cache-Control"), file).toBe("no-store");
    }
  });
});
