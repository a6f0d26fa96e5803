import { describe, expect, it } from "vitest";
import { suggestRefund } from "@/lib/disputes/suggest-refund";

describe("suggestRefund", () => {
  it("pro-rates the price by the downtime, rounding down to the micro-USDC", () => {
    expect(suggestRefund(4_000_000n, 30 * 60_000, 3_600_000)).toBe(2_000_000n);
    expect(suggestRefund(1_000_000n, 1, 3)).toBe(333_333n);
  });

  it("is 0 without downtime and never more than the price", () => {
    expect(suggestRefund(4_000_000n, 0, 3_600_000)).toBe(0n);
    expect(suggestRefund(4_000_000n, 7_200_000, 3_600_000)).toBe(4_000_000n);
  });
});
