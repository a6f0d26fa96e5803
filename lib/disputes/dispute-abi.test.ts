// The browser's slice of the escrow ABI (lib/disputes/dispute-abi.ts) matches the generated one.
import { describe, expect, it } from "vitest";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { disputeAbi } from "@/lib/disputes/dispute-abi";

describe("dispute ABI", () => {
  it("matches the escrow's generated ABI (openDispute and the errors the page explains)", () => {
    const signature = (item: { type: string; name?: string; inputs?: readonly { type: string }[] }) =>
      `${item.type} ${item.name}(${(item.inputs ?? []).map((i) => i.type).join(",")})`;
    const generated = new Set(
      (escrowAbi as readonly { type: string; name?: string; inputs?: readonly { type: string }[] }[]).map(signature),
    );
    for (const item of disputeAbi) expect(generated, signature(item)).toContain(signature(item));
  });
});
