import { describe, expect, it } from "vitest";
import { canonicalMailbox, emailSchema, isEmailAddress } from "~/lib/email";

/** A domain of 195 characters made of valid DNS labels (3 × 63 + ".com" + dots). */
const LONG_DOMAIN = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`;

/** The first message the checkout shows for a value (it shows `issues[0]`). */
function firstError(value: unknown) {
  const result = emailSchema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
}

describe("isEmailAddress", () => {
  it.each(["maya.rivera@example.com", "x+2@gmail.com", "o'brien@example.co.uk", "a@b.io", "x@gmail.com.", "first_last-1@sub.domain.example"])(
    "accepts %j",
    (address) => {
      expect(isEmailAddress(address)).toBe(true);
    },
  );

  it.each([
    ["a list of two values", "x@gmail.com,x"],
    ["a NUL character", "x\u0000@gmail.com"],
    ["a semicolon", "x;y@gmail.com"],
    ["angle brackets", "<x@gmail.com>"],
    ["double quotes", '"x"@gmail.com'],
    ["a domain without a dot", "x@gmail"],
    ["a domain label starting with a hyphen", "x@-gmail.com"],
    ["an empty domain label", "x@gmail..com"],
    ["two dots in a row in the local part", "x..y@gmail.com"],
    ["a local part starting with a dot", ".x@gmail.com"],
    ["a space", "x @gmail.com"],
    ["a one-letter top-level domain", "x@gmail.c"],
    ["a CR LF", "x\r\n@gmail.com"],
    ["an empty string", ""],
    ["an empty local part", "@gmail.com"],
    ["an empty domain", "x@"],
  ])("rejects %s (%j)", (_label, address) => {
    expect(isEmailAddress(address)).toBe(false);
  });

  it("accepts an address of exactly 254 characters and rejects one of 255", () => {
    const atLimit = `${"a".repeat(58)}@${LONG_DOMAIN}`;
    const overLimit = `${"a".repeat(59)}@${LONG_DOMAIN}`;
    expect(atLimit).toHaveLength(254);
    expect(overLimit).toHaveLength(255);
    expect(isEmailAddress(atLimit)).toBe(true);
    expect(isEmailAddress(overLimit)).toBe(false);
  });

  it("accepts a local part of 64 characters and rejects one of 65", () => {
    expect(isEmailAddress(`${"a".repeat(64)}@example.com`)).toBe(true);
    expect(isEmailAddress(`${"a".repeat(65)}@example.com`)).toBe(false);
  });
});

describe("emailSchema", () => {
  it("trims and returns the trimmed address when it is valid", () => {
    expect(emailSchema.parse("  maya.rivera@example.com \n")).toBe("maya.rivera@example.com");
    expect(emailSchema.parse("x+2@gmail.com")).toBe("x+2@gmail.com");
  });

  it.each([
    ["an empty string", ""],
    ["only spaces", "   "],
    ["a tab and a newline", "\t\n"],
    ["a missing value", undefined],
  ])("says Required for %s", (_label, value) => {
    expect(firstError(value)).toBe("Required");
  });

  it.each(["x@gmail", "x;y@gmail.com", "<x@gmail.com>", "x @gmail.com", "  x..y@gmail.com  ", "x@gmail.c"])(
    "says Enter a valid email address for %j",
    (value) => {
      expect(firstError(value)).toBe("Enter a valid email address");
    },
  );
});

describe("canonicalMailbox", () => {
  it("lower-cases the address", () => {
    expect(canonicalMailbox("Maya.Rivera@Example.COM")).toBe("maya.rivera@example.com");
  });

  it("removes a +tag for any domain", () => {
    expect(canonicalMailbox("Maya+Shop@Example.com")).toBe("maya@example.com");
    expect(canonicalMailbox("x+2@gmail.com")).toBe("x@gmail.com");
  });

  it("removes the dots of a Gmail local part", () => {
    expect(canonicalMailbox("x.y@gmail.com")).toBe("xy@gmail.com");
  });

  it("folds googlemail.com into gmail.com", () => {
    expect(canonicalMailbox("x.y@googlemail.com")).toBe("xy@gmail.com");
    expect(canonicalMailbox("x@GoogleMail.com")).toBe("x@gmail.com");
  });

  it("removes a trailing dot of the domain", () => {
    expect(canonicalMailbox("x@gmail.com.")).toBe("x@gmail.com");
    expect(canonicalMailbox("x@example.com.")).toBe("x@example.com");
  });

  it("keeps the dots of a non-Gmail local part", () => {
    expect(canonicalMailbox("x.y@example.com")).toBe("x.y@example.com");
  });

  it("trims surrounding spaces", () => {
    expect(canonicalMailbox("  x@example.com  ")).toBe("x@example.com");
  });

  it("gives every variant of x.y@gmail.com the same mailbox", () => {
    const variants = ["x.y@gmail.com", "x.y+2@gmail.com", "xy@gmail.com", "x.y@googlemail.com", "X.Y@gmail.com."];
    expect(variants.map(canonicalMailbox)).toEqual(variants.map(() => "xy@gmail.com"));
  });
});
