import { describe, expect, it } from "vitest";
import { formatCount, formatPercent } from "@/lib/format/number";

describe("numbers", () => {
  it("groups thousands and rounds percentages to 2 decimals", () => {
    expect(formatCount(1_000_000)).toBe("1,000,000");
    expect(formatCount(0)).toBe("0");
    expect(formatPercent(99.456)).toBe("99.46%");
    expect(formatPercent(100)).toBe("100%");
  });
});
