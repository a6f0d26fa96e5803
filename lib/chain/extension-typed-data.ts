import type { Address, Hex } from "viem";

// The EIP-712 extension RentalEscrow verifies (contracts/RentalEscrow.sol, EXTENSION_TYPEHASH), on
// the same domain as the checkout quote (quoteDomain). `endsAt` is the rental's current end on
// chain: a signed extension is redeemable once, from that end.
export const extensionTypes = {
  Extension: [
    { name: "rentalId", type: "bytes32" },
    { name: "renter", type: "address" },
    { name: "addedPrice", type: "uint256" },
    { name: "fee", type: "uint256" },
    { name: "addedSeconds", type: "uint64" },
    { name: "endsAt", type: "uint64" },
    { name: "deadline", type: "uint64" },
  ],
} as const;

export type Extension = {
  rentalId: Hex;
  renter: Address;
  addedPrice: bigint;
  fee: bigint;
  addedSeconds: bigint;
  endsAt: bigint;
  deadline: bigint;
};
