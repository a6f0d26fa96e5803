import type { Hex } from "viem";

// On chain a rental is a bytes32: its UUID's 16 bytes, left-aligned, zero-padded (docs/escrow.md).
export function rentalIdToBytes32(uuid: string): Hex {
  return `0x${uuid.replaceAll("-", "").toLowerCase()}${"0".repeat(32)}`;
}

export function bytes32ToRentalId(id: Hex): string | null {
  const hex = id.slice(2).toLowerCase();
  if (!/^[0-9a-f]{32}0{32}$/.test(hex)) return null; // not one of ours
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
