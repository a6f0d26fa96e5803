import { describe, expect, it } from "vitest";
import { forgetPayment, pendingPayment, rememberPayment } from "@/lib/checkout/pending-payment";

describe("pending payment memory", () => {
  const memory = () => {
    const map = new Map<string, string>();
    return {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
  };
  const hash = `0x${"12".repeat(32)}` as const;

  it("remembers a sent payment for its agent until it is confirmed", () => {
    const store = memory();
    rememberPayment({ agentId: "a", txHash: hash, channel: "API", at: 1_000 }, store);
    expect(pendingPayment("a", 2_000, store)).toMatchObject({ txHash: hash, channel: "API" });
    expect(pendingPayment("b", 2_000, store)).toBeNull();
    expect(pendingPayment("a", 1_000 + 8 * 86_400_000, store)).toBeNull();
    forgetPayment(`0x${"34".repeat(32)}`, store);
    expect(pendingPayment("a", 2_000, store)).not.toBeNull();
    forgetPayment(hash, store);
    expect(pendingPayment("a", 2_000, store)).toBeNull();
  });

  it("ignores garbage", () => {
    const store = memory();
    store.setItem("ars.checkout.pending", "{not json");
    expect(pendingPayment("a", 0, store)).toBeNull();
    expect(pendingPayment("a", 0, null)).toBeNull();
  });
});
