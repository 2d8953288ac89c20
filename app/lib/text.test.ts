import { describe, expect, it } from "vitest";
import { decodeUrlEncoded, isAcceptableJson, isAcceptableText, isFreeOfInvisibleFormatting, unacceptableUrlPart } from "~/lib/text";

describe("isAcceptableText", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["a bell", "a\u0007b"],
    ["an escape", "\u001b[31m"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u0085b"],
    ["a lone high surrogate", "\ud800abc"],
    ["a lone low surrogate", "abc\udc00"],
    ["a low surrogate before its high one", "\udc00\ud800"],
  ])("refuses %s, whether or not line breaks are allowed", (_name, text) => {
    expect(isAcceptableText(text, { lineBreaks: true })).toBe(false);
    expect(isAcceptableText(text, { lineBreaks: false })).toBe(false);
  });

  it("accepts tabs and line breaks only where a field spans lines", () => {
    for (const text of ["two\nlines", "windows\r\nlines", "a\ttab"]) {
      expect(isAcceptableText(text, { lineBreaks: true })).toBe(true);
      expect(isAcceptableText(text, { lineBreaks: false })).toBe(false);
    }
  });

  it("accepts every language and emoji, surrogate pairs included", () => {
    for (const text of ["Crème brûlée", "ピーナッツバター", "🥜🍓 bars", "Łódź – “quoted” — ok", ""]) {
      expect(isAcceptableText(text, { lineBreaks: false })).toBe(true);
    }
  });
});

describe("isAcceptableJson", () => {
  it("looks at every string, keys and nested values included", () => {
    expect(isAcceptableJson({ items: [{ product: { id: "bar" } }], note: "line\nbreak", n: 3, ok: true, none: null })).toBe(true);
    expect(isAcceptableJson(JSON.parse('{"name":"\\ud800abc"}'))).toBe(false);
    expect(isAcceptableJson(JSON.parse('{"a":[{"b":["\\u0000"]}]}'))).toBe(false);
    expect(isAcceptableJson(JSON.parse('{"\\u0000":1}'))).toBe(false);
  });

  it("walks a deeply nested body without running out of stack", () => {
    const deep = JSON.parse(`${"[".repeat(20_000)}"\\u0000"${"]".repeat(20_000)}`) as unknown;
    expect(isAcceptableJson(deep)).toBe(false);
  });
});

describe("decodeUrlEncoded", () => {
  it("decodes as a form does, + as a space", () => {
    expect(decodeUrlEncoded("intent=add&productId=bar-chocolate-pb&note=a+b%20c&empty=&flag")).toEqual([
      ["intent", "add"],
      ["productId", "bar-chocolate-pb"],
      ["note", "a b c"],
      ["empty", ""],
      ["flag", ""],
    ]);
  });

  it("refuses malformed escapes and escaped bytes that are not UTF-8, which URLSearchParams would turn into U+FFFD", () => {
    expect(decodeUrlEncoded("a=%E0%A4%A")).toBeNull();
    expect(decodeUrlEncoded("a=%ED%A0%80")).toBeNull();
    expect(decodeUrlEncoded("a=%FF")).toBeNull();
    expect(decodeUrlEncoded("a=%zz")).toBeNull();
  });
});

describe("unacceptableUrlPart", () => {
  it.each([
    ["/shop/%00", "", "path"],
    ["/%E0%A4%A", "", "path"],
    ["/shop/%ED%A0%80", "", "path"],
    ["/shop/a%0Ab", "", "path"],
    ["/unsubscribe", "token=%00", "query"],
    ["/shop", "category=%ED%A0%80", "query"],
    ["/shop", "category=bars%0A", "query"],
    ["/orders/abc", "token=%E0%A4%A", "query"],
    ["/shop/bar-chocolate-pb", "cart=open", null],
    ["/", "", null],
    ["/shop/caf%C3%A9", "q=%F0%9F%A5%9C", null],
    // Two slashes (or a slash and a backslash) name no page, and a URL parser reads a host from them (a 500 before).
    ["//", "", "path"],
    ["///", "", "path"],
    ["//", "a=1", "path"],
    ["//@", "", "path"],
    ["//%5B", "", "path"],
    ["/\\", "", "path"],
    ["/\\example.com", "", "path"],
  ] as const)("%s?%s: %s", (pathname, search, part) => {
    expect(unacceptableUrlPart(pathname, search)).toBe(part);
  });
});

describe("isFreeOfInvisibleFormatting", () => {
  it("refuses bidi controls, direction marks and zero-width spaces, and keeps emoji and the joiners scripts need", () => {
    for (const text of ["Ev\u202Ee", "\u2066x\u2069", "a\u200Eb", "a\u200Bb", "\uFEFFname", "a\u2060b", "a\u061Cb"])
      expect(isFreeOfInvisibleFormatting(text), JSON.stringify(text)).toBe(false);
    for (const text of ["Jane O'Brien", "😀Emoji 🍦Lopez", "👨\u200D👩\u200D👧", "می\u200Cخواهم", "Zoë Ångström"])
      expect(isFreeOfInvisibleFormatting(text), text).toBe(true);
  });
});
