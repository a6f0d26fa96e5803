import { describe, expect, it } from "vitest";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { withdrawAbi } from "./withdraw-abi";

type Item = { type: string; name?: string; inputs?: readonly { type: string }[] };
const signature = (item: Item) => `${item.type} ${item.name}(${(item.inputs ?? []).map((i) => i.type).join(",")})`;

describe("withdraw ABI", () => {
  it("matches the escrow's generated ABI", () => {
    const generated = new Set((escrowAbi as readonly Item[]).map(signature));
    for (const item of withdrawAbi) expect(generated, signature(item)).toContain(signature(item));
  });
});
