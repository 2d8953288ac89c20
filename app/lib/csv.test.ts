import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseCsv } from "./csv";

describe("parseCsv", () => {
  it("reads plain, quoted and multi-line fields, with CRLF or LF, and the line each record starts on", () => {
    const text =
      '\uFEFFemail,consent,note\r\na@example.com,yes,"Market, Saturday"\nb@example.com,2026-03-01,"She said ""yes""\nin person"\n\nc@example.com,,\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ["email", "consent", "note"] },
      { line: 2, fields: ["a@example.com", "yes", "Market, Saturday"] },
      { line: 3, fields: ["b@example.com", "2026-03-01", 'She said "yes"\nin person'] },
      { line: 6, fields: ["c@example.com", "", ""] },
    ]);
  });

  it("reads a last record without a line break", () => {
    expect(parseCsv("email\nx@example.com")).toEqual([
      { line: 1, fields: ["email"] },
      { line: 2, fields: ["x@example.com"] },
    ]);
  });

  it("reads back any table it is given as CSV writes it", () => {
    const cell = fc.string({ unit: fc.constantFrom("a", "b", ",", '"', "\n", " ", "é") });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (table) => {
        const written = table.map((row) => row.map((value) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)).join(",")).join("\r\n");
        expect(parseCsv(written).map((record) => record.fields)).toEqual(table);
      }),
    );
  });
});
