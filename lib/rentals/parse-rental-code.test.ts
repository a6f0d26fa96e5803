import { describe, expect, it } from "vitest";
import { parseRentalCode, uuidRangeForPrefix } from "@/lib/rentals/parse-rental-code";

describe("parseRentalCode", () => {
  it("normalises dashes and case, and accepts 8 to 32 hex characters", () => {
    expect(parseRentalCode("3F9A2C1B")).toBe("3f9a2c1b");
    expect(parseRentalCode(" 3f9a2c1b-77d0 ")).toBe("3f9a2c1b77d0");
    expect(parseRentalCode("3f9a2c1b-77d0-4a43-9c6e-0b1d2e3f4a5b")).toBe("3f9a2c1b77d04a439c6e0b1d2e3f4a5b");
  });

  it("refuses short, long and non-hex codes", () => {
    for (const bad of ["", "3f9a2c1", "3f9a-2c1", "3f9a2c1g", "rck_abcdefgh", "a".repeat(33), "3f9a2c1b 77d0"]) {
      expect(parseRentalCode(bad), bad).toBeNull();
    }
  });
});

describe("uuidRangeForPrefix", () => {
  it("spans every UUID that starts with the prefix", () => {
    expect(uuidRangeForPrefix("3f9a2c1b")).toEqual(["3f9a2c1b-0000-0000-0000-000000000000", "3f9a2c1b-ffff-ffff-ffff-ffffffffffff"]);
    expect(uuidRangeForPrefix("3f9a2c1b77d04")).toEqual(["3f9a2c1b-77d0-4000-0000-000000000000", "3f9a2c1b-77d0-4fff-ffff-ffffffffffff"]);
  });
});
