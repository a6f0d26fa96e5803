import { describe, expect, it } from "vitest";
import { formatUsdc } from "@/lib/money/format-usdc";

describe("formatUsdc", () => {
  it("shows dollars with 2 to 6 decimals and thousands separators, exactly", () => {
    expect(formatUsdc(12_500_000n)).toBe("$12.50");
    expect(formatUsdc(1_000_000n)).toBe("$1.00");
    expect(formatUsdc(5_000n)).toBe("$0.005");
    expect(formatUsdc(1n)).toBe("$0.000001");
    expect(formatUsdc(1_234_567n)).toBe("$1.234567");
    expect(formatUsdc(1_000_000_000_000n)).toBe("$1,000,000.00");
    expect(formatUsdc(999_999_999_999n)).toBe("$999,999.999999");
    expect(formatUsdc(0n)).toBe("$0.00");
  });
});
