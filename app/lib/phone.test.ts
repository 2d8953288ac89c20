import { describe, expect, it } from "vitest";
import { phoneKey } from "./phone";

describe("phoneKey", () => {
  it("is the last ten digits, however the number was typed", () => {
    for (const typed of ["(310) 555-0142", "310.555.0142", "+1 310 555 0142", "1-310-555-0142", "3105550142"]) {
      expect(phoneKey(typed)).toBe("3105550142");
    }
  });

  it("is null for no number, or one too short to name a customer", () => {
    expect(phoneKey(null)).toBeNull();
    expect(phoneKey(undefined)).toBeNull();
    expect(phoneKey("")).toBeNull();
    expect(phoneKey("555-0142")).toBeNull();
  });
});
