import { describe, expect, it } from "vitest";
import { refundFor } from "@/lib/availability/availability-terms";
import { availabilityExample } from "@/lib/docs/availability-example";

describe("the docs' worked example of the uptime guarantee", () => {
  it("says what the settlement rule computes: 2.50 of 10 USDC back for 15 of 60 minutes down at 99 %", () => {
    expect(availabilityExample()).toEqual({
      guarantee: "99%",
      minutes: "60",
      price: "10.00 USDC",
      down: "15",
      hourAllowance: "0",
      refund: "2.50 USDC",
      owner: "7.50 USDC",
      fee: "1.00 USDC",
      monthMinutes: "43,200",
      monthAllowance: "432",
    });
  });

  it("states the month's allowance the rule really leaves to the owner: 432 minutes cost nothing, the 433rd does", () => {
    const month = { priceMicro: 43_200_000_000n, guaranteePermille: 990 };
    expect(refundFor(month, 43_200, 432)).toBe(0n);
    expect(refundFor(month, 43_200, 433)).toBe(1_000_000n);
  });
});
