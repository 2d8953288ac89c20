import { describe, expect, it } from "vitest";
import { emailImageUrl } from "~/models/email-images.server";
import { fingerprintedUrl } from "~/utils/fingerprint.server";

describe("emailImageUrl: a product's picture as a JPEG email shows", () => {
  // The artwork's URL as the catalogue gives it, and the fingerprint it carries.
  const artwork = fingerprintedUrl("/images/products/bar-chocolate-pb.svg");
  const fingerprint = /\.([0-9a-f]{10})\.svg$/.exec(artwork)?.[1];

  it("names the founding artwork by its name and the fingerprint of its URL, fingerprinted or plain", () => {
    expect(fingerprint).toMatch(/^[0-9a-f]{10}$/);
    expect(emailImageUrl(artwork)).toBe(`/email-images/bar-chocolate-pb.${fingerprint}.jpg`);
    expect(emailImageUrl("/images/products/bar-chocolate-pb.svg")).toBe(`/email-images/bar-chocolate-pb.${fingerprint}.jpg`);
    // A URL from before the artwork changed: the picture it is now.
    expect(emailImageUrl("/images/products/bar-chocolate-pb.0000000000.svg")).toBe(`/email-images/bar-chocolate-pb.${fingerprint}.jpg`);
  });

  it("names an upload by its stored file, `<fingerprint>-<width>`", () => {
    expect(emailImageUrl("/product-images/0123456789abcdef-800.webp")).toBe("/email-images/0123456789abcdef-800.jpg");
    expect(emailImageUrl("/product-images/0123456789abcdef-1200.webp")).toBe("/email-images/0123456789abcdef-1200.jpg");
  });

  it.each([
    "",
    "/images/products/no-such-bar.svg",
    "/images/products/../og-shop.svg",
    "/images/og-shop.png",
    "/images/products/Bar-Chocolate-PB.svg",
    "/product-images/0123456789abcdef-800.png",
    "/product-images/0123456789ABCDEF-800.webp",
    "https://cdn.example/bar-chocolate-pb.jpg",
  ])("answers null for %j", (image) => {
    expect(emailImageUrl(image)).toBeNull();
  });
});
