import { describe, expect, it } from "vitest";
import { formatUsdc, formatUsdcDigits, formatUsdcNumber, usdcInputValue } from "@/lib/format/usdc";

describe("formatUsdc", () => {
  it("prints 2 to 6 decimals with thousands separators, exactly, and the token", () => {
    expect(formatUsdc(12_500_000n)).toBe("12.50 USDC");
    expect(formatUsdc(1_000_000n)).toBe("1.00 USDC");
    expect(formatUsdc(0n)).toBe("0.00 USDC");
    expect(formatUsdc(5_000n)).toBe("0.005 USDC");
    expect(formatUsdc(1n)).toBe("0.000001 USDC");
    expect(formatUsdc(1_234_567n)).toBe("1.234567 USDC");
    expect(formatUsdc(1_234_500_000n)).toBe("1,234.50 USDC");
    expect(formatUsdc(1_000_000_000_000n)).toBe("1,000,000.00 USDC");
    expect(formatUsdc(999_999_999_999n)).toBe("999,999.999999 USDC");
    expect(formatUsdc(-1_500_000n)).toBe("-1.50 USDC");
  });

  it("stays exact beyond Number's range", () => {
    expect(formatUsdcDigits(123_456_789_012_345_678_901n)).toBe("123,456,789,012,345.678901");
  });

  it("shows a USDC number from the services the same way, and an input's exact decimal", () => {
    expect(formatUsdcNumber(12.5)).toBe("12.50 USDC");
    expect(formatUsdcNumber(0.000001)).toBe("0.000001 USDC");
    expect(usdcInputValue(2_500_000n)).toBe("2.5");
    expect(usdcInputValue(3_000_000n)).toBe("3");
    expect(usdcInputValue(1n)).toBe("0.000001");
    expect(usdcInputValue(null)).toBe("");
  });
});
