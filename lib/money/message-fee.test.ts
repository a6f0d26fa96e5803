import { describe, expect, it } from "vitest";
import { messageFeeMicro } from "@/lib/money/message-fee";

describe("messageFeeMicro", () => {
  it("is the basis points of the price, rounded up to the micro-USDC", () => {
    expect(messageFeeMicro(10_000n, 500)).toBe(500n); // 0.01 USDC at 5 %: exact
    expect(messageFeeMicro(1_000n, 500)).toBe(50n); // the smallest price
    expect(messageFeeMicro(1_001n, 500)).toBe(51n); // 50.05 rounds up
    expect(messageFeeMicro(19n, 500)).toBe(1n); // a fraction of a micro-USDC is a whole one
    expect(messageFeeMicro(1_234_567n, 250)).toBe(30_865n); // 30,864.175
  });

  it("is nothing at 0 basis points and the whole price at 10,000", () => {
    expect(messageFeeMicro(123_457n, 0)).toBe(0n);
    expect(messageFeeMicro(123_457n, 10_000)).toBe(123_457n);
  });

  it("defaults to MESSAGE_FEE_BPS (500)", () => {
    expect(messageFeeMicro(2_000_000n)).toBe(100_000n);
  });
});
