import type { Address, Hex } from "viem";

// The EIP-712 quote RentalEscrow verifies (contracts/RentalEscrow.sol, QUOTE_TYPEHASH).
export const quoteTypes = {
  Quote: [
    { name: "rentalId", type: "bytes32" },
    { name: "renter", type: "address" },
    { name: "owner", type: "address" },
    { name: "price", type: "uint256" },
    { name: "fee", type: "uint256" },
    { name: "duration", type: "uint64" },
    { name: "deadline", type: "uint64" },
  ],
} as const;

export type Quote = {
  rentalId: Hex;
  renter: Address;
  owner: Address;
  price: bigint;
  fee: bigint;
  duration: bigint;
  deadline: bigint;
};

export function quoteDomain(chainId: number, escrow: Address) {
  return { name: "RentalEscrow", version: "1", chainId, verifyingContract: escrow } as const;
}
