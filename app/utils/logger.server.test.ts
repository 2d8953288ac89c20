import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskEmails } from "~/utils/logger.server";

describe("maskEmails (the last guard on every written log line)", () => {
  it("replaces each email address in a line, wherever it is", () => {
    expect(maskEmails('{"msg":"welcome sent to maya.lopez+treats@example.com","to2":"a@b.co"}\n')).toBe('{"msg":"welcome sent to [email]","to2":"[email]"}\n');
    expect(maskEmails('{"err":"duplicate key (mailbox)=(ana@x.com)"}')).toBe('{"err":"duplicate key [email])"}');
  });

  it("leaves a line without an @ as it is", () => {
    const line = '{"level":"info","route":"/shop","status":200,"ms":0.4}\n';
    expect(maskEmails(line)).toBe(line);
  });

  it("masks exactly what the address pattern finds, in any text", () => {
    const pattern = /[^\s"'<>@\\]+@[^\s"'<>@\\]+\.[A-Za-z]{2,}/g;
    const text = fc.string({ unit: fc.constantFrom("a", "b", "@", ".", "c", "o", "m", " ", '"', "x", "-") });
    fc.assert(
      fc.property(text, (line) => {
        expect(maskEmails(line)).toBe(line.replace(pattern, "[email]"));
      }),
    );
  });
});
