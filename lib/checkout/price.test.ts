import { describe, expect, it } from "vitest";
import { checkoutTotals, parseMicro, shortfall, shortfallMessage } from "@/lib/checkout/price";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";

describe("checkout price math", () => {
  it("adds the 1 USDC fee to the price with bigints", () => {
    expect(checkoutTotals("2000000")).toEqual({ price: 2_000_000n, fee: 1_000_000n, total: 3_000_000n });
    expect(checkoutTotals("5").total).toBe(1_000_005n);
    expect(checkoutTotals(RENTAL_FEE_MICRO).fee).toBe(RENTAL_FEE_MICRO);
    // Beyond Number's exact range: still exact.
    expect(checkoutTotals("123456789012345678901").total).toBe(123456789012346678901n);
  });

  it("rejects what is not a micro amount", () => {
    for (const bad of ["", "-1", "1.5", "1e6", " 1", "0x10"]) expect(() => parseMicro(bad)).toThrow();
  });

  it("says the shortfall in words, and nothing when the balance is enough", () => {
    expect(shortfall(3_000_000n, 3_000_000n)).toBeNull();
    expect(shortfall(1_500_000n, 3_000_000n)).toBe(1_500_000n);
    expect(shortfallMessage(10_000_000n, 3_000_000n)).toBeNull();
    expect(shortfallMessage(1_500_000n, 3_000_000n)).toBe(
      "Your wallet holds 1.50 USDC but this rental costs 3.00 USDC: add at least 1.50 USDC to this wallet, or connect another one.",
    );
  });
});
