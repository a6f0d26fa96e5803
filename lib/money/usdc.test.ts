import { describe, expect, it } from "vitest";
import { microToUsdc, usdcToMicro } from "@/lib/money/usdc";

describe("USDC conversion", () => {
  it("converts exactly through decimal text, never float arithmetic", () => {
    expect(usdcToMicro(0.1)).toBe(100_000n);
    expect(usdcToMicro(12.5)).toBe(12_500_000n);
    expect(usdcToMicro("0.000001")).toBe(1n);
    expect(usdcToMicro(1_000_000)).toBe(1_000_000_000_000n);
    expect(usdcToMicro(0.1 + 0.2)).toBeNull(); // 0.30000000000000004 has more than 6 decimals
  });

  it("refuses negatives, more than 6 decimals, exponents and non-numbers", () => {
    for (const bad of [-1, "0.0000001", 1e-7, 1e21, Number.NaN, Number.POSITIVE_INFINITY, "1,5", "abc", ""]) {
      expect(usdcToMicro(bad as number | string), String(bad)).toBeNull();
    }
  });

  it("round-trips micro-USDC to the USDC number", () => {
    for (const micro of [0n, 1n, 100_000n, 12_500_000n, 999_999_999_999n]) {
      expect(usdcToMicro(microToUsdc(micro))).toBe(micro);
    }
    expect(microToUsdc(1_234_567n)).toBe(1.234567);
  });
});
