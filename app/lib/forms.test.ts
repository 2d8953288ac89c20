import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstFieldErrors, parseDecimalInteger } from "~/lib/forms";

const schema = z
  .object({
    name: z
      .string()
      .min(1, "Required")
      .max(3, "Too long")
      .regex(/^[a-z]*$/, "Letters only"),
    email: z.string().min(1, "Required"),
    age: z.number({ invalid_type_error: "A number" }),
  })
  .refine((value) => value.name !== "bob", "Not Bob");

function errorsFor(value: unknown) {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected a failed parse");
  return firstFieldErrors(parsed.error);
}

describe("firstFieldErrors", () => {
  it("keeps the first message of each field, in the order the fields failed", () => {
    const errors = errorsFor({ name: "TOO LONG", email: "", age: "x" });
    expect(errors).toEqual({ name: "Too long", email: "Required", age: "A number" });
    expect(Object.keys(errors)).toEqual(["name", "email", "age"]);
  });

  it("leaves out the fields that parsed", () => {
    expect(errorsFor({ name: "ana", email: "", age: 3 })).toEqual({ email: "Required" });
  });

  it("leaves out an error about the whole form, which no field can show", () => {
    expect(errorsFor({ name: "bob", email: "b", age: 3 })).toEqual({});
  });
});

describe("parseDecimalInteger", () => {
  it("reads decimal digits with an optional sign, and nothing else", () => {
    expect(parseDecimalInteger("16")).toBe(16);
    expect(parseDecimalInteger(" -3 ")).toBe(-3);
    expect(parseDecimalInteger("+7")).toBe(7);
    for (const text of ["0x10", "0b11", "0o7", "1e3", "1.0", "", " ", "Infinity", "1_000", "١٢"]) {
      expect(parseDecimalInteger(text), text).toBeNull();
    }
  });
});
