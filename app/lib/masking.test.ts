import { describe, expect, test } from "vitest";
import { initial, maskEmail } from "~/lib/masking";

describe("initial", () => {
  test("is the first letter, upper-cased, with a full stop", () => {
    expect(initial("  maya ")).toBe("M.");
    expect(initial("Zoë")).toBe("Z.");
  });

  test("keeps an emoji whole: the first grapheme, never half a surrogate pair", () => {
    expect(initial("🍦Zoë")).toBe("🍦.");
    expect(initial("👩‍🍳 Ana")).toBe("👩‍🍳.");
    expect(initial("🍦Zoë")).not.toContain("\uFFFD");
  });

  test("an empty name is a question mark", () => {
    expect(initial("   ")).toBe("?.");
  });
});

test("maskEmail shows the first letter and the domain", () => {
  expect(maskEmail("maya.rivera@example.com")).toBe("m***@example.com");
});
