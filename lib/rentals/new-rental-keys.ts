import "server-only";
import { randomBytes } from "node:crypto";
import type { Hex } from "viem";

export type RentalKeys = { escrowId: Hex; sessionKey: string };

// The rental's public and owner-facing handles, drawn independently of its id (whose first 8
// characters are the renter's code): the escrow's bytes32 id is in calldata and event logs for
// anyone to read, and the sessionKey goes to the owner's webhook. Neither reveals anything.
export function newRentalKeys(): RentalKeys {
  return {
    escrowId: `0x${randomBytes(32).toString("hex")}`,
    sessionKey: `rental_${randomBytes(16).toString("hex")}`,
  };
}
